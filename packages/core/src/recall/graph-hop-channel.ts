import { walkGraph } from '../graph/graph-walk.js';
import { ChannelName } from '../model/enums.js';
import { type NodeRef, nodeKey } from '../model/graph.js';
import type { ChannelContext, ChannelHit, ChannelList } from './channel-types.js';

/**
 * Graph-hop channel: breadth-first search from the seeds over typed relations in both directions,
 * at most `depth` hops and `fanOut` heaviest edges per node (see `walkGraph`). Evidence facts of
 * traversed edges come first (strongest path first), then facts linked to the nodes reached; each
 * hit carries its node path.
 */
export async function graphHopChannel(
  ctx: ChannelContext,
  seeds: readonly NodeRef[],
  depth: number,
  fanOut: number,
): Promise<ChannelList> {
  const graph = ctx.session.graphOf(ctx.deps.store.graph);
  const { reached, traversed } = await walkGraph(graph, ctx.guildId, seeds, {
    depth,
    fanOut,
    now: ctx.deps.clock.now(),
  });
  const hits: ChannelHit[] = [];
  const seen = new Set<string>();
  const add = (factId: string, score: number, path: readonly string[]) => {
    if (seen.has(factId)) return;
    seen.add(factId);
    hits.push({ factId, score, hopPath: path });
  };
  for (const t of [...traversed].sort((a, b) => b.strength - a.strength))
    for (const id of t.edge.evidenceFactIds) add(id, t.strength, t.path);
  if (reached.length > 0) {
    const links = await ctx.session.linksForNodes(
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
  return { channel: ChannelName.GRAPH_HOP, hits: hits.slice(0, ctx.limit * 2) };
}
