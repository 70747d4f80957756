import { FactHistoryKind } from '../model/enums.js';
import type { Fact } from '../model/fact.js';
import type { MemoryStore } from '../ports/memory-store.js';
import type { Candidate } from './candidate.js';
import { historyEntry } from './fact-builder.js';
import { applyFactGraphs, type FactGraphPlan, planFactGraph } from './graph-writes.js';
import { independent, independentEach } from './store-calls.js';

/** A new fact to store, with what it was built from. */
export interface NewFact {
  readonly fact: Fact;
  readonly candidate: Candidate;
  readonly vector: Float32Array;
  /** The history entry's detail. */
  readonly detail: string;
  /** Its graph, when already planned (see `planFactGraph`). */
  readonly graph?: FactGraphPlan;
}

/**
 * Inserts new facts with their vectors, graphs and history (the caller provides the transaction),
 * in a fixed number of store calls whatever their number: graphs not yet planned are resolved
 * first, so every fact is stored once with its entity slugs; then one insert; then the graph, the
 * vectors and the history entries of all of them, which do not depend on each other.
 */
export async function insertFacts(store: MemoryStore, items: readonly NewFact[], at: Date): Promise<Fact[]> {
  if (items.length === 0) return [];
  const plans = await independentEach(store, items, (it) =>
    it.graph ? Promise.resolve(it.graph) : planFactGraph(store, it.fact, it.candidate, at),
  );
  const stored = items.map((it, i) => ({ ...it.fact, entitySlugs: [...(plans[i] as FactGraphPlan).slugs] }));
  await store.facts.insert(stored);
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
  return stored;
}

/** One new fact (see `insertFacts`). */
export async function insertFact(
  store: MemoryStore,
  fact: Fact,
  candidate: Candidate,
  vector: Float32Array,
  at: Date,
  detail: string,
): Promise<Fact> {
  return (await insertFacts(store, [{ fact, candidate, vector, detail }], at))[0] as Fact;
}
