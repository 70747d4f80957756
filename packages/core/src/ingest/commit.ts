import { FactHistoryKind } from '../model/enums.js';
import type { Fact } from '../model/fact.js';
import type { BatchCompletion } from './batch-completion.js';
import type { IngestDeps } from './deps.js';
import { type Erased, type ErasureFence, fenceActions } from './erasure-fence.js';
import { buildFact } from './fact-builder.js';
import { attachFacts, insertPrepared, type NewFact, planFacts } from './fact-inserts.js';
import { reinforceAll, retireFact } from './fact-updates.js';
import type { FactGraphPlan } from './graph-writes.js';
import type { MemberNames } from './member-names.js';
import type { Action } from './reconcile-actions.js';
import { independent, independentEach } from './store-calls.js';

export interface CommitOutcome {
  readonly added: Fact[];
  readonly reinforced: Fact[];
  readonly superseded: { readonly old: Fact; readonly replacement: Fact; readonly reason: string }[];
  readonly invalidated: { readonly old: Fact; readonly replacement: Fact; readonly reason: string }[];
}

/** What a commit carries besides the plan's actions. */
export interface CommitOptions {
  /** The batch's bookkeeping: `beside` goes out with the fact writes, `apply` last. */
  readonly completion?: BatchCompletion | undefined;
  /** Actions covered by erasures recorded since the fence opened are dropped first. */
  readonly fence?: ErasureFence | undefined;
  /**
   * Only where transactions are not atomic: the commit then splits in two. The fact writes run in
   * the transaction scope (which keeps this process's other calls out until it ends). The
   * completion starts beside them (`BatchCompletion.applyAfter`) and marks the batch done only
   * once they have landed and `beforeDone` has resolved (the batch's budget charges, which went
   * out beside the writes: a failed one still leaves the batch undone, to be retried), while
   * `alongside` runs after the writes (work that needs the committed facts, such as the digest
   * refresh).
   */
  readonly split?: {
    readonly beforeDone: () => Promise<void>;
    readonly alongside: (outcome: CommitOutcome) => Promise<void>;
    /**
     * The fence's check, started before the commit (while reconcile read memory) instead of at its
     * start: erasures recorded after it are applied again once the batch is done (fence-reapply.ts).
     */
    readonly erased?: Promise<Erased> | undefined;
    /**
     * The members the candidates' names refer to, looked up before the commit (while reconcile
     * read memory) instead of when the new facts' graphs are planned.
     */
    readonly names?: Promise<MemberNames> | undefined;
  };
}

/**
 * Applies a reconcile plan in one store transaction; events are emitted after it commits.
 * With a `fence`, actions covered by erasures recorded since it opened are dropped first.
 * The new facts, the reinforcements and the completion's `beside` writes do not depend on each
 * other: where the store's transactions are `ordered` they go out together (store-calls.ts).
 * The completion is applied last inside the same transaction (the batch's own bookkeeping:
 * messages marked processed, a watermark moved), so facts and "this batch is done" become durable
 * together.
 */
export async function commitActions(
  deps: IngestDeps,
  guildId: string,
  actions: readonly Action[],
  options: CommitOptions = {},
): Promise<CommitOutcome> {
  const { completion, fence, split } = options;
  const at = deps.clock.now();
  const outcome: CommitOutcome = { added: [], reinforced: [], superseded: [], invalidated: [] };
  // Split (no atomic transactions): "done" starts as soon as the erasures are known, beside the
  // fact writes, so a remote store takes and confirms what it will change meanwhile; it marks
  // nothing before the writes and the charges (`beforeDone`) have landed (CompleteOptions.after).
  // Started inside the transaction scope, its store calls are not held back by it.
  const landed = split && completion ? settleLater() : null;
  let done: Promise<void> | null = null;
  const transaction = deps.store.transaction(async () => {
    // Erasures since the batch began (a purge, a deleted message) drop what they cover, here in
    // the commit transaction, so nothing erased while the model ran is written back.
    const early = split?.erased;
    const erased = early ? await early : fence ? await fence.check() : null;
    if (landed && split && completion) {
      done = completion.applyAfter(
        erased,
        landed.promise.then(() => split.beforeDone()),
      );
      // Awaited after the transaction on every path.
      done.catch(() => undefined);
    }
    const live = erased ? fenceActions(actions, erased) : actions;
    const adds = live.filter((a): a is AddAction => a.kind === 'add');
    const reinforces = live.flatMap((a) =>
      a.kind === 'reinforce' ? [{ target: a.target, candidate: a.candidate }] : [],
    );
    const names = await split?.names;
    const replacing = live.filter(
      (a): a is ReplaceAction => a.kind === 'supersede' || a.kind === 'invalidate',
    );
    const [, reinforced, replaced] = await independent<[unknown, Fact[], Replaced[], unknown]>(deps.store, [
      () => commitAdds(deps, guildId, adds, at, outcome, names),
      () => reinforceAll(deps, reinforces, at),
      () => commitReplacements(deps, guildId, replacing, at, names),
      () => completion?.beside(erased) ?? Promise.resolve(),
    ]);
    // After the adds' own reinforcements (facts another batch committed meanwhile), as before.
    outcome.reinforced.push(...reinforced);
    for (const { action, replacement, old } of replaced) {
      if (old)
        (action.kind === 'supersede' ? outcome.superseded : outcome.invalidated).push({
          old,
          replacement,
          reason: action.reason,
        });
      outcome.added.push(replacement);
    }
    if (!split) await completion?.apply(erased);
    return erased;
  });
  let erased: Erased | null;
  try {
    erased = await transaction;
  } catch (error) {
    // The early "done" marks nothing now; it is left to settle, not left running.
    landed?.reject(error);
    if (done) await Promise.allSettled([done]);
    throw error;
  }
  landed?.resolve();
  if (split) {
    const { beforeDone, alongside } = split;
    await settledTogether([
      done ??
        (async () => {
          await beforeDone();
          await completion?.apply(erased);
        })(),
      alongside(outcome),
    ]);
  }
  for (const fact of outcome.added)
    deps.events.emit('FactCommitted', { guildId, fact, reinforcement: false });
  for (const fact of outcome.reinforced)
    deps.events.emit('FactCommitted', { guildId, fact, reinforcement: true });
  for (const s of [...outcome.superseded, ...outcome.invalidated]) {
    deps.events.emit('FactSuperseded', {
      guildId,
      subjectId: s.old.subjectId,
      oldFactId: s.old.id,
      newFactId: s.replacement.id,
      reason: s.reason,
    });
  }
  return outcome;
}

type AddAction = Extract<Action, { kind: 'add' }>;
type ReplaceAction = Extract<Action, { kind: 'supersede' | 'invalidate' }>;

/** A replacement stored for an action, and the fact it ended (null: already gone, or ended by an earlier action). */
interface Replaced {
  readonly action: ReplaceAction;
  readonly replacement: Fact;
  readonly old: Fact | null;
}

/**
 * Stores the replacements of supersede and invalidate actions (all in one insert, with their
 * graphs, vectors and history), then ends the facts they replace, the endings and what hangs off
 * the new facts together where the store's transactions allow it: the round trips of one
 * replacement, whatever their number.
 */
async function commitReplacements(
  deps: IngestDeps,
  guildId: string,
  actions: readonly ReplaceAction[],
  at: Date,
  names: MemberNames | undefined,
): Promise<Replaced[]> {
  if (actions.length === 0) return [];
  const { store } = deps;
  const items: NewFact[] = actions.map((action) => {
    const base = buildFact(
      action.candidate,
      guildId,
      deps.ids,
      at,
      deps.config.lifecycle,
      action.kind === 'supersede' ? (action.mergedText ?? undefined) : undefined,
    );
    return {
      fact: { ...base, supersedesId: action.target.id },
      candidate: action.candidate,
      vector: action.vector,
      detail: `replaces ${action.target.id}`,
    };
  });
  const planned = await planFacts(store, items, at, names);
  await insertPrepared(deps, planned, at, () => store.facts.insert(planned.stored));
  // A fact that several actions replace is ended once, by the first of them.
  const firstByTarget = new Map<string, number>();
  actions.forEach((a, i) => {
    if (!firstByTarget.has(a.target.id)) firstByTarget.set(a.target.id, i);
  });
  const firsts = [...firstByTarget.values()];
  const [, endings] = await independent<[unknown, (Fact | null)[]]>(store, [
    () => attachFacts(store, planned, at),
    () =>
      independentEach(store, firsts, (i) => {
        const action = actions[i] as ReplaceAction;
        const replacement = planned.stored[i] as Fact;
        return retireFact(
          store,
          action.target,
          at,
          action.kind === 'supersede' ? FactHistoryKind.SUPERSEDED : FactHistoryKind.INVALIDATED,
          `${action.reason} by ${replacement.id}`,
          replacement.id,
        );
      }),
  ]);
  const ended = new Map(firsts.map((i, k) => [i, endings[k] ?? null]));
  return actions.map((action, i) => ({
    action,
    replacement: planned.stored[i] as Fact,
    old: ended.get(i) ?? null,
  }));
}

/**
 * The batch's new facts in a fixed number of store calls: their graphs are planned (reads only),
 * then each is checked against memory once more, then those still new are inserted together.
 * Reconcile read memory before this transaction: another batch (another author's key, maybe
 * another process) may have committed the same fact since, and it is reinforced instead. Nothing
 * but the insert follows the duplicate check, since without transactions (FerretDB) another
 * process may commit the same fact in between. Two adds of one text in the batch store it once.
 */
async function commitAdds(
  deps: IngestDeps,
  guildId: string,
  adds: readonly AddAction[],
  at: Date,
  outcome: CommitOutcome,
  names: MemberNames | undefined,
): Promise<void> {
  const { store } = deps;
  const items: NewFact[] = adds.map((action) => ({
    fact: buildFact(action.candidate, guildId, deps.ids, at, deps.config.lifecycle),
    candidate: action.candidate,
    vector: action.vector,
    detail: `extracted confidence=${action.candidate.confidence.toFixed(2)}`,
  }));
  // The graphs are planned first (reads only): nothing but the insert follows the duplicate
  // check, which the store makes one step per key, so another process committing the same fact
  // at the same time (another author's batch) cannot store it a second time. A fact already
  // stored, or twice in the batch, is reinforced instead.
  const planned = await planFacts(store, items, at, names);
  // Their graphs are prepared meanwhile (reads, lookups): a fact found stored already only cost
  // reads of documents its graph would have touched.
  const existing = await insertPrepared(deps, planned, at, () =>
    store.facts.insertDistinct(guildId, planned.stored),
  );
  const inserted = existing.flatMap((e, i) => (e ? [] : [i]));
  await attachFacts(
    store,
    {
      items: inserted.map((i) => planned.items[i] as NewFact),
      stored: inserted.map((i) => planned.stored[i] as Fact),
      plans: inserted.map((i) => planned.plans[i] as FactGraphPlan),
    },
    at,
  );
  outcome.added.push(...inserted.map((i) => planned.stored[i] as Fact));
  outcome.reinforced.push(
    ...(await reinforceAll(
      deps,
      existing.flatMap((stored, i) =>
        stored ? [{ target: stored, candidate: (items[i] as NewFact).candidate }] : [],
      ),
      at,
    )),
  );
}

/** A promise settled from outside (resolve once the commit's writes landed, reject if they failed). */
function settleLater(): { promise: Promise<void>; resolve(): void; reject(error: unknown): void } {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A rejection nobody waits for (the commit failed before "done" started) is not unhandled.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/** Waits for every promise, then rejects with the first failure (none is left running). */
async function settledTogether(work: readonly Promise<unknown>[]): Promise<void> {
  const results = await Promise.allSettled(work);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}
