import { collapse, loadOwners } from '../graph/identity-collapse.js';
import { effectiveRelationWeight } from '../graph/weights.js';
import { ChannelName } from '../model/enums.js';
import { type NodeRef, nodeKey } from '../model/graph.js';
import type { ChannelContext, ChannelHit, ChannelList } from './channel-types.js';

interface Reached {
  readonly node: NodeRef;
  readonly path: readonly string[];
  readonly strength: number;
}

/**
 * Graph-hop channel: breadth-first search from the seeds over typed relations in both directions
 * (src→dst and dst→src), at most `depth` hops and `fanOut` heaviest edges per node. Evidence facts
 * of traversed edges come first, then facts linked to the nodes reached; each hit carries the
 * node path. Entity twins collapse onto their member, so a member is never visited twice.
 */
export async function graphHopChannel(
  ctx: ChannelContext,
  seeds: readonly NodeRef[],
  depth: number,
  fanOut: number,
): Promise<ChannelList> {
  const graph = ctx.deps.store.graph;
  const now = ctx.deps.clock.now();
  const owners = new Map<string, string>();
  const checked = new Set<string>();
  await loadOwners(graph, ctx.guildId, seeds, owners, checked);
  const visited = new Set<string>();
  let frontier: Reached[] = [];
  for (const s of seeds) {
    const node = collapse(s, owners);
    const k = nodeKey(node);
    if (visited.has(k)) continue;
    visited.add(k);
    frontier.push({ node, path: [k], strength: 1 });
  }
  const hits: ChannelHit[] = [];
  const seen = new Set<string>();
  const add = (factId: string, score: number, path: readonly string[]) => {
    if (seen.has(factId)) return;
    seen.add(factId);
    hits.push({ factId, score, hopPath: path });
  };
  for (let level = 0; level < depth && frontier.length > 0; level++) {
    // Query every raw node of the frontier, twins included, so edges stored on a twin are found.
    const query: NodeRef[] = frontier.map((r) => r.node);
    for (const [slug, owner] of owners)
      if (frontier.some((r) => r.node.type === 'user' && r.node.id === owner))
        query.push({ type: 'entity', id: slug });
    const relations = await graph.relationsOf(ctx.guildId, query, fanOut);
    await loadOwners(
      graph,
      ctx.guildId,
      relations.flatMap((r) => [
        { type: r.srcType, id: r.srcId },
        { type: r.dstType, id: r.dstId },
      ]),
      owners,
      checked,
    );
    const byKey = new Map(frontier.map((r) => [nodeKey(r.node), r]));
    const next = new Map<string, Reached>();
    const evidence: { factId: string; score: number; path: readonly string[] }[] = [];
    for (const r of relations) {
      const src = collapse({ type: r.srcType, id: r.srcId }, owners);
      const dst = collapse({ type: r.dstType, id: r.dstId }, owners);
      const w = effectiveRelationWeight(r.weight, r.updatedAt, now);
      for (const [from, to] of [
        [src, dst],
        [dst, src],
      ] as const) {
        const origin = byKey.get(nodeKey(from));
        if (!origin) continue;
        const k = nodeKey(to);
        const path = [...origin.path, k];
        const strength = origin.strength * w;
        for (const id of r.evidenceFactIds) evidence.push({ factId: id, score: strength, path });
        if (visited.has(k)) continue;
        const prev = next.get(k);
        if (!prev || prev.strength < strength) next.set(k, { node: to, path, strength });
      }
    }
    evidence.sort((a, b) => b.score - a.score);
    for (const e of evidence) add(e.factId, e.score, e.path);
    const reached = [...next.values()].sort((a, b) => b.strength - a.strength).slice(0, fanOut);
    for (const r of reached) visited.add(nodeKey(r.node));
    if (reached.length > 0) {
      const links = await graph.linksForNodes(
        ctx.guildId,
        reached.map((r) => r.node),
        { validity: ctx.validity, limitPerNode: Math.max(1, Math.min(ctx.limit, fanOut)) },
      );
      const byNode = new Map(reached.map((r) => [nodeKey(r.node), r]));
      for (const l of links) {
        const r = byNode.get(nodeKey({ type: l.nodeType, id: l.nodeId }));
        if (r) add(l.factId, r.strength, r.path);
      }
    }
    frontier = reached;
  }
  return { channel: ChannelName.GRAPH_HOP, hits: hits.slice(0, ctx.limit * 2) };
}
