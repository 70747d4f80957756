import { purgeMember } from '../governance/purge.js';
import { applyForgetPlan, planForget } from '../lifecycle/forget-messages.js';
import type { IngestDeps } from './deps.js';
import { type ErasureFence, nothingErased } from './erasure-fence.js';

/**
 * After a batch committed on a store without atomic transactions: an erasure may have run
 * between the fence check and the batch's last write, so the erasures seen since the fence opened
 * are applied again (purges re-run, forgotten messages' vectors deleted, facts citing them lose
 * them). Atomic stores
 * serialise the commit with the erasure, so the check inside the commit is enough there.
 */
export async function reapplyErasures(deps: IngestDeps, fence: ErasureFence): Promise<void> {
  const { store, clock } = deps;
  if (store.capabilities.transactions === 'atomic') return;
  const erased = await fence.check();
  if (nothingErased(erased)) return;
  for (const userId of erased.users)
    await purgeMember(store, { guildId: fence.guildId, userId, dryRun: false });
  if (erased.messages.size === 0) return;
  // The batch's message vectors were written beside its facts, checked against the erasures the
  // commit read: those of messages erased since are removed again.
  await store.vectors.delete(fence.guildId, 'message', [...erased.messages]);
  const plan = planForget(await store.facts.citing(fence.guildId, [...erased.messages]), erased.messages);
  if (plan.strip.length > 0)
    await store.transaction(() =>
      applyForgetPlan(store, fence.guildId, plan, clock.now(), 'source message deleted'),
    );
}
