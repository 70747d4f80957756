import type { MemoryConfig } from '../config/schema.js';
import { retireFact } from '../ingest/fact-updates.js';
import { FactHistoryKind } from '../model/enums.js';
import type { Fact } from '../model/fact.js';
import type { EventBus } from '../observability/events.js';
import type { Clock } from '../ports/clock.js';
import type { Logger } from '../ports/logger.js';
import type { MemoryStore } from '../ports/memory-store.js';
import { pruneConversation } from './conversation-retention.js';
import { selectExpired, selectForgotten, selectOverCap } from './retention.js';

const CURSOR = 'maintenance_at';
const PAGE = 1000;
const WRITE_CHUNK = 200;
/**
 * The erasure log only fences batches that were in flight when an erasure ran; a batch lives for
 * minutes at most (model deadlines, leases), so a day of log is far more than any batch needs.
 */
const ERASURE_LOG_MS = 24 * 3600 * 1000;

export interface MaintenanceReport {
  readonly guildId: string;
  readonly ran: boolean;
  readonly expired: number;
  readonly forgotten: number;
  readonly pruned: number;
  /** Messages deleted by conversation retention (age and per-channel cap). */
  readonly processedRowsDeleted: number;
}

export interface MaintenanceDeps {
  readonly store: MemoryStore;
  readonly clock: Clock;
  readonly config: MemoryConfig;
  readonly events: EventBus;
  readonly logger?: Logger;
}

async function activeFacts(store: MemoryStore, guildId: string): Promise<Fact[]> {
  const out: Fact[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.facts.list({ guildId, limit: PAGE, ...(cursor ? { cursor } : {}) });
    out.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return out;
}

/**
 * Lifecycle for one guild, at most once per `lifecycle.maintenanceIntervalSeconds` across
 * processes (a store cursor records the last run): expire TTLs, forget decayed facts, prune over
 * caps (manual and core last), apply conversation retention (age and per-channel cap).
 */
export async function runMaintenance(
  deps: MaintenanceDeps,
  guildId: string,
  force = false,
): Promise<MaintenanceReport> {
  const { store, clock, config } = deps;
  const now = clock.now();
  const idle: MaintenanceReport = {
    guildId,
    ran: false,
    expired: 0,
    forgotten: 0,
    pruned: 0,
    processedRowsDeleted: 0,
  };
  const last = await store.cursors.getCursor(guildId, CURSOR);
  if (
    !force &&
    last !== null &&
    now.getTime() - Date.parse(last) < config.lifecycle.maintenanceIntervalSeconds * 1000
  )
    return idle;
  await store.cursors.setCursor(guildId, CURSOR, now.toISOString());
  await store.erasures.pruneErasures(new Date(now.getTime() - ERASURE_LOG_MS));

  const facts = await activeFacts(store, guildId);
  const expired = selectExpired(facts, now);
  const gone = new Set(expired.map((f) => f.id));
  const forgotten = selectForgotten(
    facts.filter((f) => !gone.has(f.id)),
    now,
    config.lifecycle.decayStabilityDays,
    config.lifecycle.forgetRetentionFloor,
  );
  for (const f of forgotten) gone.add(f.id);
  const pruned = selectOverCap(
    facts.filter((f) => !gone.has(f.id)),
    config.lifecycle.maxFactsPerUser,
    config.lifecycle.maxServerFacts,
  );

  const retire = async (list: readonly Fact[], kind: FactHistoryKind, detail: string) => {
    for (let i = 0; i < list.length; i += WRITE_CHUNK) {
      await store.transaction(async () => {
        for (const f of list.slice(i, i + WRITE_CHUNK)) await retireFact(store, f, now, kind, detail, null);
      });
    }
    for (const f of list)
      deps.events.emit('FactSuperseded', {
        guildId,
        subjectId: f.subjectId,
        oldFactId: f.id,
        newFactId: null,
        reason: detail,
      });
  };
  await retire(expired, FactHistoryKind.EXPIRED, 'ttl');
  await retire(forgotten, FactHistoryKind.FORGOTTEN, 'decay');
  await retire(pruned, FactHistoryKind.PRUNED, 'cap');

  const retentionCutoff = new Date(now.getTime() - config.conversation.retentionDays * 86_400_000);
  const processedRowsDeleted = await pruneConversation(store, guildId, {
    olderThan: retentionCutoff,
    maxPerChannel: config.conversation.maxMessagesPerChannel,
  });
  deps.logger?.({
    level: 'info',
    event: 'maintenance.done',
    data: {
      guildId,
      expired: expired.length,
      forgotten: forgotten.length,
      pruned: pruned.length,
      processedRowsDeleted,
    },
  });
  return {
    guildId,
    ran: true,
    expired: expired.length,
    forgotten: forgotten.length,
    pruned: pruned.length,
    processedRowsDeleted,
  };
}
