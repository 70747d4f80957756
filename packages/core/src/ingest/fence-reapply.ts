import { ErrorCode, MemoryError } from '../errors/index.js';
import { purgeMember } from '../governance/purge.js';
import { applyForgetPlan, planForget } from '../lifecycle/forget-messages.js';
import { quiet } from '../recall/recall-session.js';
import type { IngestDeps } from './deps.js';
import { type Erased, type ErasureFence, nothingErased } from './erasure-fence.js';

/**
 * After a batch committed on a store without atomic transactions: an erasure may have run
 * between the fence check and the batch's last write, so the erasures seen since the fence opened
 * are applied again (purges re-run, forgotten messages' vectors deleted, facts citing them lose
 * them). Atomic stores
 * serialise the commit with the erasure, so the check inside the commit is enough there.
 * `checked`: a read of the erasures started after the batch's last write about people, used
 * instead of a new one (ReapplyHooks).
 */
export async function reapplyErasures(
  deps: IngestDeps,
  fence: ErasureFence,
  checked?: Promise<Erased>,
): Promise<void> {
  const { store, clock } = deps;
  if (store.capabilities.transactions === 'atomic') return;
  const erased = await (checked ?? fence.check());
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

/**
 * What a fenced batch tells the re-application of erasures (ExtractBatchOptions.reapply), so that
 * it starts as early as is safe and overlaps the batch's completion.
 */
export interface ReapplyHooks {
  /** Everything the batch wrote about people so far has landed: the erasures may be read now. */
  landed(): void;
  /**
   * The batch wrote all it will about people: re-applies the erasures. The read `landed` started
   * serves unless something about people was written after it (`wroteSince`: a digest, an alias),
   * which an erasure recorded after that read could have missed; they are read again then.
   */
  finished(wroteSince: boolean): Promise<void>;
}

/**
 * Runs a fenced batch (`run`) and re-applies the erasures once after its last write about people:
 * `run` gets hooks to start the re-application where it can overlap the batch's completion;
 * otherwise it runs when `run` returns. A batch that fails part-way may have written some of its
 * work, so it is re-applied then too, from a fresh read (a failure of its own is logged; the
 * batch's error is what the caller sees). Nothing is re-applied after `CLOSED`.
 */
export async function withErasuresReapplied<T>(
  deps: IngestDeps,
  fence: ErasureFence,
  run: (hooks: ReapplyHooks) => Promise<T>,
): Promise<T> {
  let early: Promise<Erased> | undefined;
  let reapplied: Promise<void> | undefined;
  const hooks: ReapplyHooks = {
    landed() {
      if (deps.store.capabilities.transactions === 'atomic') return;
      early ??= quiet(fence.check());
    },
    finished(wroteSince) {
      reapplied ??= reapplyErasures(deps, fence, wroteSince ? undefined : early);
      return reapplied;
    },
  };
  try {
    const out = await run(hooks);
    reapplied ??= reapplyErasures(deps, fence);
    await reapplied;
    return out;
  } catch (error) {
    if (!MemoryError.is(error, ErrorCode.CLOSED))
      await reapplyErasures(deps, fence).catch((reapplyError: unknown) =>
        deps.logger?.({
          level: 'warn',
          event: 'ingest.reapply_failed',
          data: { guildId: fence.guildId },
          error: reapplyError,
        }),
      );
    throw error;
  }
}
