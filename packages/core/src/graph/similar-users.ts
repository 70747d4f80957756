import { NodeType, Polarity } from '../model/enums.js';
import type { GraphStore } from '../ports/graph-store.js';
import type { SimilarUser } from './graph-types.js';
import type { RelationEdge } from './graph-walk.js';
import { collapsedEdges } from './graph-walk.js';
import { entityNode, nodesOfUsers } from './identity-collapse.js';

const MAX_SEED_ENTITIES = 50;
const MAX_CANDIDATES = 100;

/** Signed affinity per entity: positive and neutral edges add their weight, negative ones subtract it. */
export function entityProfile(userId: string, edges: readonly RelationEdge[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of edges) {
    const userSide = e.src.type === NodeType.USER && e.src.id === userId ? e.src : null;
    const other = userSide ? e.dst : e.dst.type === NodeType.USER && e.dst.id === userId ? e.src : null;
    if (!other || other.type !== NodeType.ENTITY) continue;
    const sign = e.polarity === Polarity.NEGATIVE ? -1 : 1;
    out.set(other.id, (out.get(other.id) ?? 0) + sign * e.weight);
  }
  return out;
}

/**
 * Polarity-aware weighted Jaccard: Σ over shared entities of ±min(|a|, |b|) (minus when the signs
 * differ) divided by Σ over all entities of max(|a|, |b|); negative totals clamp to 0.
 */
export function profileSimilarity(
  a: ReadonlyMap<string, number>,
  b: ReadonlyMap<string, number>,
): { score: number; shared: number; conflicting: number } {
  let num = 0;
  let den = 0;
  let shared = 0;
  let conflicting = 0;
  for (const slug of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(slug) ?? 0;
    const y = b.get(slug) ?? 0;
    den += Math.max(Math.abs(x), Math.abs(y));
    if (x === 0 || y === 0) continue;
    const overlap = Math.min(Math.abs(x), Math.abs(y));
    if (Math.sign(x) === Math.sign(y)) {
      num += overlap;
      shared++;
    } else {
      num -= overlap;
      conflicting++;
    }
  }
  const score = den > 0 ? Math.max(0, num / den) : 0;
  return { score: Math.round(score * 1e4) / 1e4, shared, conflicting };
}

/** Members whose entity profile is most like this member's (see `profileSimilarity`). */
export async function similarUsers(
  graph: GraphStore,
  guildId: string,
  userId: string,
  options: { readonly limit: number; readonly now: Date; readonly excluded: (userId: string) => boolean },
): Promise<SimilarUser[]> {
  const self = await nodesOfUsers(graph, guildId, [userId]);
  const owners = self.owners;
  const mine = entityProfile(
    userId,
    await collapsedEdges(graph, guildId, self.nodes, owners, 200, options.now),
  );
  const seeds = [...mine.entries()]
    .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))
    .slice(0, MAX_SEED_ENTITIES)
    .map(([slug]) => entityNode(slug));
  if (seeds.length === 0) return [];
  const inbound = await collapsedEdges(graph, guildId, seeds, owners, 200, options.now);
  const overlap = new Map<string, number>();
  for (const e of inbound)
    for (const n of [e.src, e.dst])
      if (n.type === NodeType.USER && n.id !== userId && !options.excluded(n.id))
        overlap.set(n.id, (overlap.get(n.id) ?? 0) + e.weight);
  const candidates = [...overlap.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, MAX_CANDIDATES)
    .map(([id]) => id);
  const out: SimilarUser[] = [];
  for (const candidate of candidates) {
    const theirs = await nodesOfUsers(graph, guildId, [candidate]);
    for (const [slug, owner] of theirs.owners) owners.set(slug, owner);
    const profile = entityProfile(
      candidate,
      await collapsedEdges(graph, guildId, theirs.nodes, owners, 200, options.now),
    );
    const sim = profileSimilarity(mine, profile);
    if (sim.score > 0)
      out.push({
        userId: candidate,
        score: sim.score,
        sharedEntities: sim.shared,
        conflictingEntities: sim.conflicting,
      });
  }
  return out.sort((a, b) => b.score - a.score || (a.userId < b.userId ? -1 : 1)).slice(0, options.limit);
}
