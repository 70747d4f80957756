import { FactHistoryKind } from '../model/enums.js';
import type { Fact } from '../model/fact.js';
import type { MemoryStore } from '../ports/memory-store.js';
import type { Candidate } from './candidate.js';
import type { IngestDeps } from './deps.js';
import { historyEntry } from './fact-builder.js';
import { applyFactGraphs, type FactGraphPlan, planFactGraph, prepareFactGraphs } from './graph-writes.js';
import type { MemberNames } from './member-names.js';
import { independent, independentEach } from './store-calls.js';

/** A new fact to store, with what it was built from. */
export interface NewFact {
  readonly fact: Fact;
  readonly candidate: Candidate;
  readonly vector: Float32Array;
  /** The history entry's detail. */
  readonly detail: string;
}

/** New facts as they will be stored (with their entity slugs), and their planned graphs. */
export interface PlannedFacts {
  readonly items: readonly NewFact[];
  readonly stored: readonly Fact[];
  readonly plans: readonly FactGraphPlan[];
}

/**
 * Plans the graphs of new facts (reads only: names `names` does not answer), so that every fact is
 * stored once with its entity slugs.
 */
export async function planFacts(
  store: MemoryStore,
  items: readonly NewFact[],
  at: Date,
  names?: MemberNames,
): Promise<PlannedFacts> {
  const plans = await independentEach(store, items, (it) =>
    planFactGraph(store, it.fact, it.candidate, at, names),
  );
  const stored = items.map((it, i) => ({ ...it.fact, entitySlugs: [...(plans[i] as FactGraphPlan).slugs] }));
  return { items, stored, plans };
}

/**
 * Runs the insert of planned facts (`insert`) with their graphs prepared beside it
 * (`prepareFactGraphs`: only where transactions are `ordered`), so that the graph writes that
 * follow the insert start from reads already made. Returns what `insert` returns.
 */
export async function insertPrepared<T>(
  deps: Pick<IngestDeps, 'store' | 'logger'>,
  planned: PlannedFacts,
  at: Date,
  insert: () => Promise<T>,
): Promise<T> {
  const graphs = planned.stored.map((fact, i) => ({ fact, plan: planned.plans[i] as FactGraphPlan }));
  // Never rejects; awaited whatever the insert's outcome, so nothing of it is left running.
  const prepared = prepareFactGraphs(deps, graphs, at);
  try {
    return await insert();
  } finally {
    await prepared;
  }
}

/**
 * Writes what hangs off stored new facts: their graphs, vectors and history entries, one call
 * each whatever their number, and together where the store's transactions allow it.
 */
export async function attachFacts(store: MemoryStore, planned: PlannedFacts, at: Date): Promise<void> {
  const { items, stored, plans } = planned;
  if (stored.length === 0) return;
  await independent(store, [
    () =>
      applyFactGraphs(
        store,
        stored.map((fact, i) => ({ fact, plan: plans[i] as FactGraphPlan })),
        at,
      ),
    () =>
      store.vectors.upsert(
        items.map((it) => ({
          kind: 'fact' as const,
          id: it.fact.id,
          guildId: it.fact.guildId,
          subjectId: it.fact.subjectId,
          active: true,
          vector: it.vector,
        })),
      ),
    () =>
      store.facts.appendHistory(
        stored.map((fact, i) =>
          historyEntry(fact, FactHistoryKind.CREATED, at, (items[i] as NewFact).detail, {
            actorId: (items[i] as NewFact).candidate.actorId,
          }),
        ),
      ),
  ]);
}

/**
 * Inserts one new fact with its vector, graph and history (the caller provides the transaction):
 * its graph is planned first, so it is stored once with its entity slugs.
 */
export async function insertFact(
  store: MemoryStore,
  fact: Fact,
  candidate: Candidate,
  vector: Float32Array,
  at: Date,
  detail: string,
  names?: MemberNames,
): Promise<Fact> {
  const planned = await planFacts(store, [{ fact, candidate, vector, detail }], at, names);
  await store.facts.insert(planned.stored);
  await attachFacts(store, planned, at);
  return planned.stored[0] as Fact;
}
