import type { Polarity } from '../model/enums.js';
import { type NodeRef, nodeKey, type Relation } from '../model/graph.js';
import { effectiveRelationWeight } from '../model/relation-rules.js';
import type { GraphStore } from '../ports/graph-store.js';
import { collapse, entityNode, loadOwners } from './identity-collapse.js';

/** A relation read through identity collapse, with its weight decayed to `now`. */
export interface RelationEdge {
  readonly src: NodeRef;
  readonly dst: NodeRef;
  readonly verb: string;
  readonly polarity: Polarity;
  /** Effective weight: stored weight × exp(−days since the last evidence / 90). */
  readonly weight: number;
  readonly storedWeight: number;
  readonly occurrences: number;
  readonly confidence: number;
  readonly evidenceFactIds: readonly string[];
  readonly validFrom: Date;
  readonly updatedAt: Date;
}

export function toEdge(r: Relation, owners: ReadonlyMap<string, string>, now: Date): RelationEdge {
  return {
    src: collapse({ type: r.srcType, id: r.srcId }, owners),
    dst: collapse({ type: r.dstType, id: r.dstId }, owners),
    verb: r.verb,
    polarity: r.polarity,
    weight: Math.round(effectiveRelationWeight(r.weight, r.updatedAt, now) * 1e6) / 1e6,
    storedWeight: r.weight,
    occurrences: r.occurrences,
    confidence: r.confidence,
    evidenceFactIds: r.evidenceFactIds,
    validFrom: r.validFrom,
    updatedAt: r.updatedAt,
  };
}

/** Collapsed edges touching the nodes (both directions), self-loops dropped, heaviest per (src, dst, verb). */
export async function collapsedEdges(
  graph: GraphStore,
  guildId: string,
  nodes: readonly NodeRef[],
  owners: Map<string, string>,
  limitPerNode: number,
  now: Date,
): Promise<RelationEdge[]> {
  if (nodes.length === 0) return [];
  const relations = await graph.relationsOf(guildId, nodes, limitPerNode);
  await loadOwners(
    graph,
    guildId,
    relations.flatMap((r) => [
      { type: r.srcType, id: r.srcId },
      { type: r.dstType, id: r.dstId },
    ]),
    owners,
  );
  const best = new Map<string, RelationEdge>();
  for (const r of relations) {
    const e = toEdge(r, owners, now);
    if (nodeKey(e.src) === nodeKey(e.dst)) continue;
    const k = `${nodeKey(e.src)}|${nodeKey(e.dst)}|${e.verb}`;
    const prev = best.get(k);
    if (!prev || prev.weight < e.weight) best.set(k, e);
  }
  return [...best.values()].sort((a, b) => b.weight - a.weight || (a.verb < b.verb ? -1 : 1));
}

export interface ReachedNode {
  readonly node: NodeRef;
  readonly depth: number;
  /** Node keys from the seed to this node. */
  readonly path: readonly string[];
  readonly verbs: readonly string[];
  /** Product of the effective weights along the path. */
  readonly strength: number;
  /** Evidence facts of the path's edges (latest 8). */
  readonly evidenceFactIds: readonly string[];
}

export interface TraversedEdge {
  readonly edge: RelationEdge;
  readonly path: readonly string[];
  readonly strength: number;
}

export interface WalkOptions {
  readonly depth: number;
  /** Heaviest edges read per node and nodes kept per level. */
  readonly fanOut: number;
  readonly now: Date;
  /** Nodes never entered (opted-out members, bots). */
  readonly blocked?: (node: NodeRef) => boolean;
}

/**
 * Breadth-first walk over relations in both directions (an edge is followed from its source to
 * its destination and from its destination to its source). Twins collapse onto their member.
 * Each node is reached once, by its strongest path of the shortest depth.
 */
export async function walkGraph(
  graph: GraphStore,
  guildId: string,
  seeds: readonly NodeRef[],
  options: WalkOptions,
): Promise<{ readonly reached: ReachedNode[]; readonly traversed: TraversedEdge[] }> {
  const owners = new Map<string, string>();
  await loadOwners(graph, guildId, seeds, owners);
  const visited = new Set<string>();
  let frontier: ReachedNode[] = [];
  for (const s of seeds) {
    const node = collapse(s, owners);
    const k = nodeKey(node);
    if (visited.has(k)) continue;
    visited.add(k);
    frontier.push({ node, depth: 0, path: [k], verbs: [], strength: 1, evidenceFactIds: [] });
  }
  const reached: ReachedNode[] = [];
  const traversed: TraversedEdge[] = [];
  for (let level = 1; level <= options.depth && frontier.length > 0; level++) {
    const query: NodeRef[] = frontier.map((r) => r.node);
    for (const [slug, owner] of owners)
      if (frontier.some((r) => r.node.type === 'user' && r.node.id === owner)) query.push(entityNode(slug));
    const edges = await collapsedEdges(graph, guildId, query, owners, options.fanOut, options.now);
    const byKey = new Map(frontier.map((r) => [nodeKey(r.node), r]));
    const next = new Map<string, ReachedNode>();
    for (const edge of edges) {
      for (const [from, to] of [
        [edge.src, edge.dst],
        [edge.dst, edge.src],
      ] as const) {
        const origin = byKey.get(nodeKey(from));
        if (!origin || options.blocked?.(to)) continue;
        const k = nodeKey(to);
        const path = [...origin.path, k];
        const strength = origin.strength * edge.weight;
        traversed.push({ edge, path, strength });
        if (visited.has(k)) continue;
        const prev = next.get(k);
        if (!prev || prev.strength < strength)
          next.set(k, {
            node: to,
            depth: level,
            path,
            verbs: [...origin.verbs, edge.verb],
            strength,
            evidenceFactIds: [...new Set([...origin.evidenceFactIds, ...edge.evidenceFactIds])].slice(-8),
          });
      }
    }
    const kept = [...next.values()].sort((a, b) => b.strength - a.strength).slice(0, options.fanOut);
    for (const r of kept) visited.add(nodeKey(r.node));
    reached.push(...kept);
    frontier = kept;
  }
  return { reached, traversed };
}
