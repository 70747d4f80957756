import type { Link, Relation } from '../model/graph.js';
import type { FactStore } from '../ports/fact-store.js';
import type { GraphStore } from '../ports/graph-store.js';
import type { Visibility } from './visibility.js';

/**
 * The graph as an audience may see it: a relation only when at least one fact it rests on is
 * visible, a link only when its fact is. Every walk, stance, shared-interest or similarity answer
 * built on this view inherits the audience (a relation learned only in a hidden channel is never a
 * hop). Guild-wide reads get the graph itself.
 */
export function visibleGraph(
  graph: GraphStore,
  facts: Pick<FactStore, 'get'>,
  guildId: string,
  visible: Visibility,
): GraphStore {
  if (!visible.restricted) return graph;
  const known = new Map<string, boolean>();
  const check = async (ids: readonly string[]): Promise<void> => {
    const missing = [...new Set(ids)].filter((id) => !known.has(id));
    if (missing.length === 0) return;
    for (const id of missing) known.set(id, false);
    for (const f of await facts.get(guildId, missing)) known.set(f.id, visible.channels(f.channels));
  };
  const relations = async (list: Relation[]): Promise<Relation[]> => {
    await check(list.flatMap((r) => r.evidenceFactIds));
    return list.filter((r) => r.evidenceFactIds.some((id) => known.get(id) === true));
  };
  const links = async (list: Link[]): Promise<Link[]> => {
    await check(list.map((l) => l.factId));
    return list.filter((l) => known.get(l.factId) === true);
  };
  return new Proxy(graph, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== 'function') return value;
      const call = (...args: unknown[]) => (value as (...a: unknown[]) => unknown).apply(target, args);
      switch (name) {
        case 'relationsOf':
        case 'relationsTouching':
        case 'relationsCiting':
          return async (...args: unknown[]) => relations((await call(...args)) as Relation[]);
        case 'linksForNodes':
        case 'linksForFacts':
          return async (...args: unknown[]) => links((await call(...args)) as Link[]);
        default:
          return call;
      }
    },
  });
}
