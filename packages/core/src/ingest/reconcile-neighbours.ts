import type { MemoryConfig } from '../config/schema.js';
import type { Fact } from '../model/fact.js';
import { queryTerms } from '../text/analyze.js';
import { STATE_CHANGE } from '../text/state-change.js';
import type { Candidate } from './candidate.js';
import type { IngestDeps } from './deps.js';

export const MAX_NEIGHBOURS = 6;

/**
 * Facts by id for one reconcile: candidates of one subject mostly find the same neighbours, and a
 * fact asked for again (while its read is in flight or after) is not read twice.
 */
export class FactReads {
  readonly #store: IngestDeps['store'];
  readonly #guildId: string;
  readonly #reads = new Map<string, Promise<Fact | undefined>>();

  constructor(store: IngestDeps['store'], guildId: string) {
    this.#store = store;
    this.#guildId = guildId;
  }

  async get(ids: readonly string[]): Promise<Map<string, Fact>> {
    const missing = [...new Set(ids)].filter((id) => !this.#reads.has(id));
    if (missing.length > 0) {
      const read = this.#store.facts
        .get(this.#guildId, missing)
        .then((facts) => new Map(facts.map((f) => [f.id, f])));
      for (const id of missing)
        this.#reads.set(
          id,
          read.then((found) => found.get(id)),
        );
    }
    const found = await Promise.all(ids.map((id) => this.#reads.get(id) as Promise<Fact | undefined>));
    return new Map(found.flatMap((f) => (f ? [[f.id, f] as const] : [])));
  }
}

/**
 * Neighbours of a candidate among the same subject's active facts: nearest by vector (colliding
 * when ≥ collisionThreshold, or ≥ collisionFloor with state-change phrasing or the same category)
 * plus keyword matches. All of them are checked by the free contradiction rule; only the colliding
 * ones go to the model.
 */
export async function neighbourPool(
  deps: IngestDeps,
  guildId: string,
  candidate: Candidate,
  vector: Float32Array,
  cfg: MemoryConfig['extraction'],
  optedOutRead: Promise<ReadonlySet<string>>,
  reads: FactReads,
): Promise<{ colliding: { fact: Fact; score: number }[]; related: Fact[] }> {
  const scope =
    candidate.subjectId === null ? { serverOnly: true as const } : { subjectIds: [candidate.subjectId] };
  const [hits, lexical] = await Promise.all([
    deps.store.vectors.search({ kind: 'fact', guildId, vector, limit: MAX_NEIGHBOURS, ...scope }),
    deps.store.facts.searchText({ guildId, ...scope }, queryTerms(candidate.text), MAX_NEIGHBOURS),
  ]);
  const facts = await reads.get(hits.map((h) => h.id));
  const optedOut = await optedOutRead;
  // Statements of members who opted out are neither shown to the model nor retired by others.
  const live = (f: Fact | undefined): f is Fact =>
    f !== undefined &&
    f.supersededById === null &&
    f.validUntil === null &&
    (f.attribution.speakerId === null || !optedOut.has(f.attribution.speakerId));
  const changing = STATE_CHANGE.test(candidate.text);
  const colliding = hits
    .map((h) => ({ fact: facts.get(h.id), score: h.score }))
    .filter((n): n is { fact: Fact; score: number } => live(n.fact))
    .filter(
      (n) =>
        n.score >= cfg.collisionThreshold ||
        (n.score >= cfg.collisionFloor &&
          (changing || STATE_CHANGE.test(n.fact.text) || n.fact.category === candidate.category)),
    );
  const related = new Map<string, Fact>();
  for (const h of hits) {
    const f = facts.get(h.id);
    if (live(f)) related.set(f.id, f);
  }
  for (const t of lexical) if (live(t.fact)) related.set(t.fact.id, t.fact);
  return { colliding, related: [...related.values()] };
}
