import { randomBytes } from 'node:crypto';
import { type MemoryConfig, type MemoryConfigInput, parseConfig } from '../config/index.js';
import { type ConversationApi, createConversationApi } from '../conversation/conversation-api.js';
import { createActiveModesApi, createClaimsApi } from '../conversation/coordination-api.js';
import { HotTier } from '../conversation/hot-tier.js';
import { createInsightsApi, type InsightsApi } from '../conversation/insights-api.js';
import { toConversationMessage } from '../conversation/message-view.js';
import { ErrorCode, MemoryError } from '../errors/index.js';
import type { IngestDeps } from '../ingest/deps.js';
import { IngestEngine } from '../ingest/engine.js';
import type { GuildStats } from '../model/admin.js';
import type { MessageEventInput } from '../model/message.js';
import { BudgetService } from '../runtime/budgets.js';
import { EventBus, type MemoryEvents, type MemoryEventType } from '../runtime/events.js';
import { MetricsRegistry } from '../runtime/metrics.js';
import { type AdminApi, createAdminApi } from './admin-api.js';
import { type CommandClassification, classifyCommand } from './classify-command.js';
import { createFactsApi, type FactsApi } from './facts-api.js';
import { structuredModeOf } from './models.js';
import { type ObserveReceipt, Observer, parseMessageEvent } from './observe.js';
import { createOpsApi, type OpsApi } from './ops-api.js';
import type { MemoryOverrides } from './overrides.js';
import { buildRuntime, type Runtime } from './runtime.js';
import { WorkerLoop } from './worker-loop.js';

interface Started {
  readonly rt: Runtime;
  readonly deps: IngestDeps;
  readonly engine: IngestEngine;
  readonly observer: Observer;
  readonly facts: FactsApi;
  readonly admin: AdminApi;
  readonly conversation: ConversationApi;
  readonly claims: ReturnType<typeof createClaimsApi>;
  readonly activeModes: ReturnType<typeof createActiveModesApi>;
  readonly insights: InsightsApi;
  readonly hot: HotTier;
  readonly loop: WorkerLoop | null;
}

type Lazy<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => Promise<R> : never;
};

/** Delegates each method of a group to the started instance (starting it on first use). */
function lazyGroup<T extends object>(get: () => Promise<T>, names: readonly (keyof T)[]): Lazy<T> {
  const out: Record<string, unknown> = {};
  for (const name of names)
    out[name as string] = async (...args: unknown[]) =>
      ((await get()) as Record<string, (...a: unknown[]) => unknown>)[name as string]?.(...args);
  return out as Lazy<T>;
}

/**
 * Long-term memory for one bot: observe messages, extract facts in the background, recall them
 * before replying. Construction does no I/O; every call starts the instance lazily.
 */
export class Memory {
  readonly config: MemoryConfig;
  readonly events: {
    on<K extends MemoryEventType>(type: K, handler: (payload: MemoryEvents[K]) => void): () => void;
  };
  readonly facts: Lazy<FactsApi>;
  readonly admin: Lazy<AdminApi>;
  readonly conversation: Lazy<ConversationApi>;
  readonly claims: Lazy<ReturnType<typeof createClaimsApi>>;
  readonly activeModes: Lazy<ReturnType<typeof createActiveModesApi>>;
  readonly insights: Lazy<InsightsApi>;
  readonly ops: OpsApi;
  readonly #overrides: MemoryOverrides;
  readonly #bus: EventBus;
  readonly #metrics = new MetricsRegistry();
  readonly #botIds = new Set<string>();
  readonly #guilds = new Set<string>();
  readonly #instanceId: string;
  #starting: Promise<Started> | null = null;
  #closed = false;

  constructor(config: MemoryConfig, overrides: MemoryOverrides = {}) {
    this.config = config;
    this.#overrides = overrides;
    this.#instanceId = overrides.instanceId ?? `pf-${randomBytes(6).toString('hex')}`;
    this.#bus = new EventBus(overrides.logger);
    this.events = { on: (type, handler) => this.#bus.on(type, handler) };
    const started = () => this.#start();
    this.facts = lazyGroup(
      async () => (await started()).facts,
      ['remember', 'get', 'getAll', 'update', 'forget', 'reinforce', 'history', 'listForSubject'],
    );
    this.admin = lazyGroup(
      async () => (await started()).admin,
      ['setOptOut', 'getOptOut', 'purgeUser', 'exportGuild', 'importGuild', 'exportUser'],
    );
    this.conversation = lazyGroup(
      async () => (await started()).conversation,
      ['threadHistory', 'authorHistory', 'channelStats', 'recordReply', 'append', 'session', 'clear'],
    );
    this.claims = lazyGroup(async () => (await started()).claims, ['tryClaim', 'release']);
    this.activeModes = lazyGroup(
      async () => (await started()).activeModes,
      ['persist', 'touch', 'remove', 'list'],
    );
    this.insights = lazyGroup(
      async () => (await started()).insights,
      ['topicTrends', 'activity', 'preferences'],
    );
    this.ops = createOpsApi({
      runtime: async () => (await started()).rt,
      engine: async () => (await started()).engine,
      events: this.#bus,
      metrics: this.#metrics,
      guilds: () => this.#guilds,
      workersRunning: () => this.#starting !== null && this.#loopRunning,
    });
  }

  #loopRunning = false;

  /** Starts explicitly (optional: every call starts lazily). Idempotent. */
  async start(): Promise<void> {
    await this.#start();
  }

  #start(): Promise<Started> {
    if (this.#closed)
      return Promise.reject(new MemoryError(ErrorCode.CLOSED, 'this memory instance was closed'));
    this.#starting ??= this.#boot().catch((error: unknown) => {
      this.#starting = null;
      throw error;
    });
    return this.#starting;
  }

  async #boot(): Promise<Started> {
    const rt = await buildRuntime(this.config, this.#overrides);
    for (const guildId of await rt.store.governance.listGuildIds()) this.#guilds.add(guildId);
    const deps: IngestDeps = {
      store: rt.store,
      embedder: rt.embedder,
      llm: rt.llm,
      smallLlm: rt.smallLlm,
      clock: rt.clock,
      ids: rt.ids,
      config: rt.config,
      events: this.#bus,
      budgets: new BudgetService({
        store: rt.store.governance,
        clock: rt.clock,
        config: rt.config.budgets,
        events: this.#bus,
      }),
      isBot: (id) => this.#botIds.has(id),
      structuredMode: structuredModeOf(rt.config),
      ...(rt.logger ? { logger: rt.logger } : {}),
    };
    const engine = new IngestEngine(deps, this.#instanceId);
    const hot = new HotTier(rt.config.context.hotMessages);
    const observer = new Observer({
      config: rt.config,
      clock: rt.clock,
      isBot: (id) => this.#botIds.has(id),
      onStored: (row) => hot.push(toConversationMessage(row)),
      ...(rt.logger ? { logger: rt.logger } : {}),
    });
    const ensureStarted = async () => {
      await this.#start();
    };
    const facts = createFactsApi({ ...deps, ensureStarted });
    const admin = createAdminApi({
      ...deps,
      ensureStarted,
      forgetUserCaches: (g, u) => {
        observer.forgetUser(g, u);
        hot.forgetUser(g, u);
      },
    });
    const coordination = { store: rt.store, clock: rt.clock, instanceId: this.#instanceId };
    const conversation = createConversationApi({
      store: rt.store,
      clock: rt.clock,
      ids: rt.ids,
      hot,
      maxSessionEntries: rt.config.conversation.maxSessionEntries,
      botId: () => [...this.#botIds][0] ?? null,
    });
    let loop: WorkerLoop | null = null;
    if (rt.config.workers.enabled) {
      loop = new WorkerLoop({
        engine,
        maintenance: {
          store: rt.store,
          clock: rt.clock,
          config: rt.config,
          events: this.#bus,
          ...(rt.logger ? { logger: rt.logger } : {}),
        },
        guilds: () => this.#guilds,
        pollMs: rt.config.workers.pollIntervalMs,
        batchLimit: rt.config.workers.count * 4,
        ...(rt.logger ? { logger: rt.logger } : {}),
      });
      loop.start();
      this.#loopRunning = true;
    }
    return {
      rt,
      deps,
      engine,
      observer,
      facts,
      admin,
      conversation,
      claims: createClaimsApi(coordination),
      activeModes: createActiveModesApi(coordination),
      insights: createInsightsApi({ store: rt.store, clock: rt.clock }),
      hot,
      loop,
    };
  }

  /** Stores a message for background extraction. O(1); never calls a model or an embedder. */
  async observe(event: MessageEventInput): Promise<ObserveReceipt> {
    const t0 = performance.now();
    const parsed = parseMessageEvent(event);
    let started: Started;
    try {
      started = await this.#start();
    } catch (error) {
      this.#metrics.inc('observe{status="rejected"}');
      const reason = MemoryError.is(error, ErrorCode.CLOSED) ? 'closed' : 'storage_unavailable';
      return { messageId: parsed.messageId, status: 'rejected', reason };
    }
    const receipt = await started.observer.observe(started.rt.store, parsed);
    if (receipt.status === 'accepted') this.#guilds.add(parsed.guildId);
    this.#metrics.inc(
      `observe{status="${receipt.status}"${receipt.reason ? `,reason="${receipt.reason}"` : ''}}`,
    );
    this.#metrics.observe('observe', performance.now() - t0);
    return receipt;
  }

  /** Observes messages in order; one receipt each. */
  async observeMany(events: readonly MessageEventInput[]): Promise<ObserveReceipt[]> {
    const receipts: ObserveReceipt[] = [];
    for (const e of events) receipts.push(await this.observe(e));
    return receipts;
  }

  /**
   * Processes every pending batch now, due or not, and the community pass where enough new
   * messages arrived. Returns batches processed.
   */
  async flush(input: { guildId?: string } = {}): Promise<number> {
    const { engine } = await this.#start();
    let total = 0;
    for (let round = 0; round < 1000; round++) {
      const n = await engine.runPending({
        force: true,
        limit: 256,
        ...(input.guildId !== undefined ? { guildId: input.guildId } : {}),
      });
      total += n;
      if (n === 0) break;
    }
    const guilds = input.guildId !== undefined ? [input.guildId] : [...this.#guilds];
    for (const g of guilds) if (await engine.communityPass(g)) total++;
    return total;
  }

  /** A bot is never a subject and its messages are never observed. */
  registerBotId(userId: string): void {
    this.#botIds.add(userId);
  }

  async stats(input: { guildId: string }): Promise<GuildStats> {
    return (await this.#start()).rt.store.governance.guildStats(input.guildId);
  }

  /** Detects "remember/forget/update/what do you know" commands; a regex gate runs before any model. */
  async classifyCommand(text: string): Promise<CommandClassification> {
    const { rt, deps } = await this.#start();
    return classifyCommand(text, {
      llm: rt.smallLlm,
      structuredMode: deps.structuredMode,
      ...(rt.logger ? { logger: rt.logger } : {}),
    });
  }

  /** Stops workers, optionally drains due batches, and closes the store. Safe to call twice. */
  async close(options: { drain?: boolean; timeoutMs?: number } = {}): Promise<void> {
    if (this.#closed) return;
    const starting = this.#starting;
    this.#closed = true;
    if (!starting) return;
    let started: Started;
    try {
      started = await starting;
    } catch {
      return;
    }
    const deadline = Date.now() + (options.timeoutMs ?? 30_000);
    await started.loop?.stop();
    this.#loopRunning = false;
    await started.engine.idle();
    if (options.drain ?? true) {
      const force = !started.rt.store.capabilities.durable;
      try {
        while (Date.now() < deadline) {
          const n = await started.engine.runPending({ limit: 64, ...(force ? { force } : {}) });
          if (n === 0) break;
        }
      } catch (error) {
        started.rt.logger?.({ level: 'warn', event: 'memory.drain_failed', error });
      }
    }
    await started.rt.embedder.close().catch(() => undefined);
    await started.rt.store.close();
  }
}

/** Validates configuration (CONFIG_INVALID on any problem) and returns an unstarted memory. */
export function createMemory(config?: MemoryConfigInput, overrides: MemoryOverrides = {}): Memory {
  return new Memory(parseConfig(config ?? {}, overrides.env ? { env: overrides.env } : {}), overrides);
}
