import { ErrorCode, MemoryError } from '../errors/index.js';
import { FactHistoryKind } from '../model/enums.js';
import type { Fact, FactPatch } from '../model/fact.js';
import type { MemoryStore } from '../ports/memory-store.js';
import type { Candidate } from './candidate.js';
import type { IngestDeps } from './deps.js';
import { historyEntry, reinforcementPatch } from './fact-builder.js';
import { independent, independentEach } from './store-calls.js';

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

/**
 * Ends a fact: validUntil (and supersededBy when replaced), its vector inactive and its relation
 * evidence dropped, together where the store's transactions allow it; then its history entry.
 */
export async function retireFact(
  store: MemoryStore,
  old: Fact,
  at: Date,
  kind: FactHistoryKind,
  detail: string,
  replacementId: string | null,
  actorId: string | null = null,
): Promise<Fact | null> {
  // The end itself, the vector and the relation evidence do not depend on each other (for a fact
  // that turns out to be gone, an inactive vector and no evidence are right too): together where
  // the store's transactions allow it. The history entry names the version the end wrote.
  const [retired] = await independent<[Fact | null, unknown, unknown]>(store, [
    () =>
      store.facts.update(
        old.guildId,
        old.id,
        { validUntil: at, ...(replacementId ? { supersededById: replacementId } : {}) },
        { at },
      ),
    () => store.vectors.setActive(old.guildId, 'fact', [old.id], false),
    () => store.graph.dropEvidence(old.guildId, [old.id], at),
  ]);
  if (!retired) return null;
  await store.facts.appendHistory([historyEntry(retired, kind, at, detail, { actorId })]);
  return retired;
}
