import type { MemoryConfig } from '../config/schema.js';
import type { Fact } from '../model/fact.js';
import type { RecallSession } from '../recall/recall-session.js';
import { queryTerms } from '../text/analyze.js';
import { STATE_CHANGE } from '../text/state-change.js';
import type { Candidate } from './candidate.js';
import type { IngestDeps } from './deps.js';

export const MAX_NEIGHBOURS = 6;

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
  reads: RecallSession,
): Promise<{ colliding: { fact: Fact; score: number }[]; related: Fact[] }> {
  const scope =
    candidate.subjectId === null ? { serverOnly: true as const } : { subjectIds: [candidate.subjectId] };
  // Read with the searches, not after them: on a remote store one round trip less.
  const optedOutRead = reads.optedOut(guildId);
  const [hits, lexical] = await Promise.all([
    deps.store.vectors.search({ kind: 'fact', guildId, vector, limit: MAX_NEIGHBOURS, ...scope }),
    deps.store.facts.searchText({ guildId, ...scope }, queryTerms(candidate.text), MAX_NEIGHBOURS),
  ]);
  // Keyword hits come with their facts, read at the same moment as the vector hits: only vector
  // hits the keyword search did not return are read by id (none, often: one round trip less).
  const facts = new Map(lexical.map((t) => [t.fact.id, t.fact]));
  const unread = hits.map((h) => h.id).filter((id) => !facts.has(id));
  if (unread.length > 0) for (const f of await reads.facts(guildId, unread)) facts.set(f.id, f);
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
