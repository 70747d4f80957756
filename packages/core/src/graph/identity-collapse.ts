import { NodeType } from '../model/enums.js';
import type { NodeRef } from '../model/graph.js';
import type { GraphStore } from '../ports/graph-store.js';

/**
 * Identity collapse: a person entity linked to a member (its "twin") reads as that member.
 * `owners` maps entity slug → member id for the entities seen so far.
 */
export type TwinOwners = ReadonlyMap<string, string>;

export const userNode = (id: string): NodeRef => ({ type: NodeType.USER, id });
export const entityNode = (slug: string): NodeRef => ({ type: NodeType.ENTITY, id: slug });

/** The user node of each member plus every entity linked to one of them. */
export async function nodesOfUsers(
  graph: GraphStore,
  guildId: string,
  userIds: readonly string[],
): Promise<{ readonly nodes: NodeRef[]; readonly owners: Map<string, string> }> {
  const unique = [...new Set(userIds)];
  const owners = new Map<string, string>();
  if (unique.length === 0) return { nodes: [], owners };
  const twins = await graph.entitiesLinkedTo(guildId, unique);
  const nodes: NodeRef[] = unique.map(userNode);
  for (const e of twins) {
    if (e.linkedUserId === null) continue;
    owners.set(e.slug, e.linkedUserId);
    nodes.push(entityNode(e.slug));
  }
  return { nodes, owners };
}

/** Adds the owners of any not-yet-known entity nodes (one store read). */
export async function loadOwners(
  graph: GraphStore,
  guildId: string,
  nodes: Iterable<NodeRef>,
  owners: Map<string, string>,
  known: Set<string> = new Set(),
): Promise<void> {
  const slugs = new Set<string>();
  for (const n of nodes)
    if (n.type === NodeType.ENTITY && !owners.has(n.id) && !known.has(n.id)) slugs.add(n.id);
  if (slugs.size === 0) return;
  for (const s of slugs) known.add(s);
  for (const e of await graph.getEntities(guildId, [...slugs]))
    if (e.linkedUserId !== null) owners.set(e.slug, e.linkedUserId);
}

/** The node as read through identity collapse. */
export function collapse(node: NodeRef, owners: TwinOwners): NodeRef {
  if (node.type !== NodeType.ENTITY) return node;
  const owner = owners.get(node.id);
  return owner === undefined ? node : userNode(owner);
}

export function sameNode(a: NodeRef, b: NodeRef): boolean {
  return a.type === b.type && a.id === b.id;
}
