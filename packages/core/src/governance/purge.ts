import type { PurgeReport } from '../model/admin.js';
import type { MemoryStore } from '../ports/memory-store.js';
import { planPurge } from './purge-plan.js';
import { purgeReport } from './purge-rules.js';

export interface PurgeRequest {
  readonly guildId: string;
  readonly userId: string;
  readonly dryRun: boolean;
}

/**
 * Removes every trace of a member in a guild (or, as a dry run, only counts it): core plans the
 * purge from reads and the store applies the plan. The real run plans and applies in one
 * transaction, joining the caller's (admin.purgeUser records the erasure in the same one), so on
 * an atomic store nothing written between the reads and the writes escapes the plan. The opt-out
 * row is kept so consent survives the purge.
 */
export async function purgeMember(store: MemoryStore, request: PurgeRequest): Promise<PurgeReport> {
  const { guildId, userId } = request;
  if (request.dryRun) {
    const { plan, tallies } = await planPurge(store, guildId, userId);
    return purgeReport(plan, tallies, true);
  }
  return store.transaction(async () => {
    const { plan, tallies } = await planPurge(store, guildId, userId);
    await store.admin.applyPurge(plan);
    return purgeReport(plan, tallies, false);
  });
}
