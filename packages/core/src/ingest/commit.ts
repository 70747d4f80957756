import { ErrorCode, MemoryError } from '../errors/index.js';
import { FactHistoryKind } from '../model/enums.js';
import type { Fact, FactPatch } from '../model/fact.js';
import type { MemoryStore } from '../ports/memory-store.js';
import type { BatchCompletion } from './batch-completion.js';
import type { Candidate } from './candidate.js';
import type { IngestDeps } from './deps.js';
import { type ErasureFence, fenceActions } from './erasure-fence.js';
import { buildFact, historyEntry, reinforcementPatch } from './fact-builder.js';
import { attachFacts, insertFact, type NewFact, planFacts } from './fact-inserts.js';
import type { FactGraphPlan } from './graph-writes.js';
import type { Action } from './reconcile-actions.js';
import { independentEach } from './store-calls.js';

export interface CommitOutcome {
  readonly added: Fact[];
  readonly reinforced: Fact[];
  readonly superseded: { readonly old: Fact; readonly replacement: Fact; readonly reason: string }[];
  readonly invalidated: { readonly old: Fact; readonly replacement: Fact; readonly reason: string }[];
}

/** Reinforces a fact with optimistic concurrency (re-reads and retries on a version race). */
export async function reinforceFact(
  deps: Pick<IngestDeps, 'store' | 'config'>,
  target: Fact,
  candidate: Candidate,
  at: Date,
): Promise<Fact> {
  return (await reinforceRepeatedly(deps, target, [candidate], at))[0] as Fact;
}

/**
 * Reinforces one fact once per candidate in a single versioned update (re-read and recomputed on
 * a version race), with one history entry per reinforcement, as if they had been applied in turn.
 * Returns the updated fact once per candidate.
 */
async function reinforceRepeatedly(
  deps: Pick<IngestDeps, 'store' | 'config'>,
  target: Fact,
  candidates: readonly Candidate[],
  at: Date,
): Promise<Fact[]> {
  let current = target;
  for (let attempt = 0; attempt < 4; attempt++) {
    let merged = current;
    let patch: FactPatch = {};
    const counts: number[] = [];
    for (const candidate of candidates) {
      patch = reinforcementPatch(merged, candidate, at, deps.config.lifecycle);
      merged = { ...merged, ...patch };
      counts.push(merged.occurrences);
    }
    const next = await deps.store.facts.update(current.guildId, current.id, patch, {
      at,
      expectedVersion: current.version,
    });
    if (next) {
      await deps.store.facts.appendHistory(
        counts.map((n) => historyEntry(next, FactHistoryKind.REINFORCED, at, `occurrences=${n}`)),
      );
      return candidates.map(() => next);
    }
    const [fresh] = await deps.store.facts.get(current.guildId, [current.id]);
    if (!fresh) break;
    current = fresh;
  }
  throw new MemoryError(ErrorCode.CONFLICT, 'could not reinforce a fact after repeated concurrent updates');
}

/**
 * Reinforces facts: one versioned update per fact (a fact named twice is reinforced twice in that
 * update), independent of the others, so where the store's transactions are `ordered` they go out
 * together (the round trips of one, not of all in turn; see store-calls.ts). Results in input
 * order.
 */
export async function reinforceAll(
  deps: Pick<IngestDeps, 'store' | 'config'>,
  items: readonly { readonly target: Fact; readonly candidate: Candidate }[],
  at: Date,
): Promise<Fact[]> {
  const byFact = new Map<string, number[]>();
  for (const [i, it] of items.entries()) {
    const indexes = byFact.get(it.target.id);
    if (indexes) indexes.push(i);
    else byFact.set(it.target.id, [i]);
  }
  const out: Fact[] = new Array(items.length);
  await independentEach(deps.store, [...byFact.values()], async (indexes) => {
    const first = items[indexes[0] as number] as { target: Fact };
    const done = await reinforceRepeatedly(
      deps,
      first.target,
      indexes.map((i) => (items[i] as { candidate: Candidate }).candidate),
      at,
    );
    indexes.forEach((i, k) => {
      out[i] = done[k] as Fact;
    });
  });
  return out;
}

/** Ends a fact: validUntil (and supersededBy when replaced), vector inactive, relation evidence dropped. */
export async function retireFact(
  store: MemoryStore,
  old: Fact,
  at: Date,
  kind: FactHistoryKind,
  detail: string,
  replacementId: string | null,
  actorId: string | null = null,
): Promise<Fact | null> {
  const retired = await store.facts.update(
    old.guildId,
    old.id,
    { validUntil: at, ...(replacementId ? { supersededById: replacementId } : {}) },
    { at },
  );
  if (!retired) return null;
  await store.vectors.setActive(old.guildId, 'fact', [old.id], false);
  await store.graph.dropEvidence(old.guildId, [old.id], at);
  await store.facts.appendHistory([historyEntry(retired, kind, at, detail, { actorId })]);
  return retired;
}

/**
 * Applies a reconcile plan in one store transaction; events are emitted after it commits.
 * With a `fence`, actions covered by erasures recorded since it opened are dropped first.
 * `completion` is applied last inside the same transaction (the batch's own bookkeeping: messages
 * marked processed, a watermark moved), so facts and "this batch is done" become durable together.
 */
export async function commitActions(
  deps: IngestDeps,
  guildId: string,
  actions: readonly Action[],
  completion?: BatchCompletion,
  fence?: ErasureFence,
): Promise<CommitOutcome> {
  const at = deps.clock.now();
  const outcome: CommitOutcome = { added: [], reinforced: [], superseded: [], invalidated: [] };
  await deps.store.transaction(async () => {
    // Erasures since the batch began (a purge, a deleted message) drop what they cover, here in
    // the commit transaction, so nothing erased while the model ran is written back.
    const live = fence ? fenceActions(actions, await fence.forCommit()) : actions;
    const adds = live.filter((a): a is AddAction => a.kind === 'add');
    await commitAdds(deps, guildId, adds, at, outcome);
    outcome.reinforced.push(
      ...(await reinforceAll(
        deps,
        live.flatMap((a) => (a.kind === 'reinforce' ? [{ target: a.target, candidate: a.candidate }] : [])),
        at,
      )),
    );
    for (const action of live) {
      switch (action.kind) {
        case 'add':
        case 'reinforce':
          break;
        case 'supersede':
        case 'invalidate': {
          const base = buildFact(
            action.candidate,
            guildId,
            deps.ids,
            at,
            deps.config.lifecycle,
            action.kind === 'supersede' ? (action.mergedText ?? undefined) : undefined,
          );
          const fact = { ...base, supersedesId: action.target.id };
          const replacement = await insertFact(
            deps.store,
            fact,
            action.candidate,
            action.vector,
            at,
            `replaces ${action.target.id}`,
          );
          const kind = action.kind === 'supersede' ? FactHistoryKind.SUPERSEDED : FactHistoryKind.INVALIDATED;
          const old = await retireFact(
            deps.store,
            action.target,
            at,
            kind,
            `${action.reason} by ${replacement.id}`,
            replacement.id,
          );
          if (old)
            (action.kind === 'supersede' ? outcome.superseded : outcome.invalidated).push({
              old,
              replacement,
              reason: action.reason,
            });
          outcome.added.push(replacement);
          break;
        }
      }
    }
    await completion?.apply();
  });
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
  const planned = await planFacts(store, items, at);
  const existing = await store.facts.insertDistinct(guildId, planned.stored);
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
