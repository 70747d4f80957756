import { z } from 'zod';
import type { PricedMeterSnapshot } from '../adapters/llm/index.js';
import type { Runtime } from '../composition/runtime.js';
import { MemoryError } from '../errors/index.js';
import { aliasWeight, isValidAlias, normalizeAlias } from '../identity/aliases.js';
import type { IngestEngine } from '../ingest/engine.js';
import { storageFailureDetail } from '../ingest/observe-receipts.js';
import { type MaintenanceReport, runMaintenance } from '../lifecycle/maintenance.js';
import { AliasSource, HealthStatus } from '../model/enums.js';
import { isActive } from '../model/fact.js';
import type { EventBus } from '../observability/events.js';
import type { MetricsRegistry, MetricsSnapshot } from '../observability/metrics.js';
import { countField, idField as id, parseInput, parseNoArgs, userIdField } from '../validation/index.js';

const runPendingSchema = z.object({ limit: countField(10_000).optional(), guildId: id.optional() }).strict();
const guildOptionalSchema = z.object({ guildId: id.optional() }).strict();
const backfillSchema = z
  .object({
    guildId: id,
    members: z
      .array(
        z
          .object({
            userId: userIdField,
            username: z.string().max(512).optional(),
            displayName: z.string().max(512).optional(),
          })
          .strict(),
      )
      .max(100_000),
  })
  .strict();
const maintenanceSchema = z.object({ guildId: id, force: z.boolean().optional() }).strict();

export interface ComponentHealth {
  readonly component: 'storage' | 'llm' | 'embedder' | 'workers';
  readonly status: HealthStatus;
  readonly detail: string;
}

export interface HealthReport {
  readonly status: HealthStatus;
  readonly components: readonly ComponentHealth[];
  readonly pending: number;
  readonly deadLetters: number;
  /** Seconds since this process last completed a batch (null: none yet). */
  readonly lastBatchAgeSeconds: number | null;
}

export interface OpsMetrics extends MetricsSnapshot {
  readonly meter: PricedMeterSnapshot;
  /**
   * Prometheus text exposition of the same numbers and the meter's, from prom-client: counters
   * (`permafrost_*_total`), latency histograms in seconds (`permafrost_*_duration_seconds`).
   */
  prometheus(): string;
  /** The Content-Type to serve `prometheus()` with (`text/plain; version=0.0.4; charset=utf-8`). */
  readonly prometheusContentType: string;
}

export interface OpsDeps {
  readonly runtime: () => Promise<Runtime>;
  readonly engine: () => Promise<IngestEngine>;
  readonly events: EventBus;
  readonly metrics: MetricsRegistry;
  readonly guilds: () => Iterable<string>;
  readonly workersRunning: () => boolean;
}

/** The model's health: degraded when disabled, or while its latest calls all failed. */
function llmHealth(rt: Runtime): ComponentHealth {
  if (!rt.llm)
    return { component: 'llm', status: HealthStatus.DEGRADED, detail: 'extraction disabled (no llm)' };
  const { consecutiveFailures, lastErrorCode } = rt.llmOutcomes();
  if (consecutiveFailures > 0)
    return {
      component: 'llm',
      status: HealthStatus.DEGRADED,
      detail: `${rt.llm.model}: the last ${consecutiveFailures} call(s) failed (${lastErrorCode ?? 'INTERNAL'})`,
    };
  return { component: 'llm', status: HealthStatus.OK, detail: rt.llm.model };
}

export function createOpsApi(deps: OpsDeps) {
  return {
    /**
     * One cron-mode tick (for `workers.enabled: false` or split worker processes): due batches,
     * then the community pass and lifecycle maintenance where they are due. Returns batches run.
     */
    async runPending(input: { limit?: number; guildId?: string } = {}): Promise<number> {
      parseInput(runPendingSchema, input, 'ops.runPending');
      const engine = await deps.engine();
      const rt = await deps.runtime();
      let n = await engine.runPending(input);
      const guilds = input.guildId !== undefined ? [input.guildId] : [...deps.guilds()];
      for (const guildId of guilds) {
        if (await engine.communityPass(guildId)) n++;
        await runMaintenance(
          {
            store: rt.store,
            clock: rt.clock,
            config: rt.config,
            events: deps.events,
            ...(rt.logger ? { logger: rt.logger } : {}),
          },
          guildId,
        );
      }
      return n;
    },

    /** Dead letters back to pending (attempts reset). */
    async retryDeadLetters(input: { guildId?: string } = {}): Promise<number> {
      parseInput(guildOptionalSchema, input, 'ops.retryDeadLetters');
      const rt = await deps.runtime();
      return rt.store.queue.requeueDead(input.guildId);
    },

    /** Registers usernames and display names of existing members (cold-start identity). */
    async backfillAliases(input: {
      guildId: string;
      members: readonly { userId: string; username?: string; displayName?: string }[];
    }): Promise<number> {
      parseInput(backfillSchema, input, 'ops.backfillAliases');
      const rt = await deps.runtime();
      const at = rt.clock.now();
      const optedOut = new Set(await rt.store.consent.optedOutUsers(input.guildId));
      let n = 0;
      for (const m of input.members) {
        if (optedOut.has(m.userId)) continue;
        for (const [raw, source] of [
          [m.username, AliasSource.DISCORD_USERNAME],
          [m.displayName, AliasSource.DISPLAY_NAME],
        ] as const) {
          if (!raw) continue;
          const alias = normalizeAlias(raw);
          if (!isValidAlias(alias)) continue;
          await rt.store.aliases.upsert({
            guildId: input.guildId,
            alias,
            userId: m.userId,
            source,
            weight: aliasWeight(source, alias),
            updatedAt: at,
          });
          n++;
        }
      }
      return n;
    },

    /** Runs lifecycle maintenance for a guild now (or only when due unless forced). */
    async maintenance(input: { guildId: string; force?: boolean }): Promise<MaintenanceReport> {
      parseInput(maintenanceSchema, input, 'ops.maintenance');
      const rt = await deps.runtime();
      return runMaintenance(
        {
          store: rt.store,
          clock: rt.clock,
          config: rt.config,
          events: deps.events,
          ...(rt.logger ? { logger: rt.logger } : {}),
        },
        input.guildId,
        input.force ?? true,
      );
    },

    /** Re-embeds every fact of every guild with the current embedder (after changing embedders). */
    async reindex(...none: []): Promise<{ guilds: number; vectors: number }> {
      parseNoArgs(none, 'ops.reindex');
      const rt = await deps.runtime();
      await rt.store.vectors.reset();
      let vectors = 0;
      const guilds = await rt.store.admin.listGuildIds();
      for (const guildId of guilds) {
        let cursor: string | undefined;
        do {
          const page = await rt.store.facts.list({
            guildId,
            validity: 'any',
            limit: 256,
            ...(cursor ? { cursor } : {}),
          });
          const embedded = await rt.embedder.embed(page.items.map((f) => f.text));
          await rt.store.vectors.upsert(
            page.items.map((f, i) => ({
              kind: 'fact' as const,
              id: f.id,
              guildId,
              subjectId: f.subjectId,
              active: isActive(f),
              vector: embedded[i] as Float32Array,
            })),
          );
          vectors += page.items.length;
          cursor = page.nextCursor ?? undefined;
        } while (cursor);
      }
      await rt.store.meta.setMeta('embedder.id', rt.embedder.id);
      return { guilds: guilds.length, vectors };
    },

    /** Sends one tiny request to the extraction model (costs a few tokens); never throws. */
    async probeLlm(...none: []): Promise<{
      readonly ok: boolean;
      readonly model: string | null;
      readonly detail: string;
    }> {
      parseNoArgs(none, 'ops.probeLlm');
      const rt = await deps.runtime();
      if (!rt.llm) return { ok: false, model: null, detail: 'extraction disabled (no llm)' };
      try {
        await rt.llm.complete({
          messages: [{ role: 'user', content: 'Reply with OK.' }],
          purpose: 'general',
          maxTokens: 8,
          responseFormat: { type: 'text' },
        });
        return { ok: true, model: rt.llm.model, detail: 'answered' };
      } catch (error) {
        return {
          ok: false,
          model: rt.llm.model,
          detail: MemoryError.is(error) ? `${error.code}: ${error.message}` : 'unreachable',
        };
      }
    },

    async health(...none: []): Promise<HealthReport> {
      parseNoArgs(none, 'ops.health');
      const components: ComponentHealth[] = [];
      let pending = 0;
      let dead = 0;
      let lastBatchAgeSeconds: number | null = null;
      try {
        const rt = await deps.runtime();
        const engine = await deps.engine();
        await rt.store.ping();
        components.push({ component: 'storage', status: HealthStatus.OK, detail: rt.store.name });
        components.push(llmHealth(rt));
        components.push({ component: 'embedder', status: HealthStatus.OK, detail: rt.embedder.id });
        components.push({
          component: 'workers',
          status: deps.workersRunning() ? HealthStatus.OK : HealthStatus.DEGRADED,
          detail: deps.workersRunning() ? 'running' : 'not running (use ops.runPending)',
        });
        for (const guildId of deps.guilds()) {
          const c = await rt.store.queue.counts(guildId);
          pending += c.pending;
          dead += c.dead;
        }
        const last = engine.lastSuccessAt;
        lastBatchAgeSeconds = last ? Math.max(0, (rt.clock.now().getTime() - last.getTime()) / 1000) : null;
      } catch (error) {
        components.push({
          component: 'storage',
          status: HealthStatus.DOWN,
          detail: storageFailureDetail(error),
        });
      }
      const status = components.some((c) => c.status === HealthStatus.DOWN)
        ? HealthStatus.DOWN
        : components.some((c) => c.status === HealthStatus.DEGRADED)
          ? HealthStatus.DEGRADED
          : HealthStatus.OK;
      return { status, components, pending, deadLetters: dead, lastBatchAgeSeconds };
    },

    async meterSnapshot(...none: []): Promise<PricedMeterSnapshot> {
      parseNoArgs(none, 'ops.meterSnapshot');
      return (await deps.runtime()).meter.snapshot();
    },

    async metrics(...none: []): Promise<OpsMetrics> {
      parseNoArgs(none, 'ops.metrics');
      const rt = await deps.runtime();
      const meter = rt.meter.snapshot();
      deps.metrics.syncMeter(meter);
      const snapshot = await deps.metrics.snapshot();
      const text = await deps.metrics.prometheus();
      return {
        ...snapshot,
        meter,
        prometheus: () => text,
        prometheusContentType: deps.metrics.contentType,
      };
    },
  };
}

export type OpsApi = ReturnType<typeof createOpsApi>;
