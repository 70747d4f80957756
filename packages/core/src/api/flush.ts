import type { IngestEngine } from '../ingest/engine.js';
import type { Logger } from '../ports/logger.js';
import type { MemoryStore } from '../ports/memory-store.js';

/** What `flush({ report: true })` did, and what it could not take. */
export interface FlushReport {
  /** Batch units processed (as `flush()` returns). */
  readonly batches: number;
  /** Messages still leased by another process (alive, or dead and not yet reclaimable). */
  readonly leasedElsewhere: number;
  /** Messages still pending: backing off after a failure, or arrived during the flush. */
  readonly waiting: number;
}

/**
 * Processes every pending batch now, due or not, then the community pass where enough new
 * messages arrived, and counts what is left behind. Something left behind is logged too
 * (`memory.flush_incomplete`, counts only).
 */
export async function flushNow(
  deps: { engine: IngestEngine; store: MemoryStore; logger: Logger | undefined },
  guilds: readonly string[],
  guildId: string | undefined,
): Promise<FlushReport> {
  const { engine, store } = deps;
  let batches = 0;
  for (let round = 0; round < 1000; round++) {
    const n = await engine.runPending({
      force: true,
      limit: 256,
      ...(guildId !== undefined ? { guildId } : {}),
    });
    batches += n;
    if (n === 0) break;
  }
  let leasedElsewhere = 0;
  let waiting = 0;
  for (const g of guildId !== undefined ? [guildId] : guilds) {
    if (await engine.communityPass(g)) batches++;
    const counts = await store.queue.counts(g);
    leasedElsewhere += counts.claimed;
    waiting += counts.pending;
  }
  if (leasedElsewhere > 0 || waiting > 0)
    deps.logger?.({ level: 'warn', event: 'memory.flush_incomplete', data: { leasedElsewhere, waiting } });
  return { batches, leasedElsewhere, waiting };
}
