import { normalizeAlias } from '../identity/aliases.js';
import { EdgeKind, EntityKind, NodeType } from '../model/enums.js';
import type { Fact } from '../model/fact.js';
import type { Link, NodeRef } from '../model/graph.js';
import { normalizeVerb, polarityOf } from '../model/relation-rules.js';
import type { MemoryStore } from '../ports/memory-store.js';
import type { Candidate, RelationEnd } from './candidate.js';

/** URL-safe slug of an entity name: lowercase, runs of other characters become "-". */
export function entitySlug(name: string): string {
  return normalizeAlias(name)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
}

/** The member a name unambiguously refers to (exactly one user holds that alias), else null. */
export async function memberByName(
  store: MemoryStore,
  guildId: string,
  name: string,
): Promise<string | null> {
  const alias = normalizeAlias(name);
  if (alias.length < 2) return null;
  const users = new Set((await store.aliases.find(guildId, alias, 8)).map((a) => a.userId));
  return users.size === 1 ? ([...users][0] as string) : null;
}

async function entityNode(
  store: MemoryStore,
  guildId: string,
  name: string,
  kind: EntityKind,
  at: Date,
): Promise<NodeRef | null> {
  const slug = entitySlug(name);
  if (slug.length === 0) return null;
  const member = await memberByName(store, guildId, name);
  if (member) return { type: NodeType.USER, id: member };
  await store.graph.upsertEntity({
    guildId,
    slug,
    name: name.slice(0, 64),
    kind,
    aliases: [normalizeAlias(name)],
    at,
  });
  return { type: NodeType.ENTITY, id: slug };
}

async function resolveEnd(
  store: MemoryStore,
  guildId: string,
  end: RelationEnd,
  kinds: ReadonlyMap<string, EntityKind>,
  at: Date,
): Promise<NodeRef | null> {
  if (end.kind === 'user') return { type: NodeType.USER, id: end.userId };
  return entityNode(store, guildId, end.name, kinds.get(normalizeAlias(end.name)) ?? EntityKind.CONCEPT, at);
}

/**
 * Writes the graph of a new fact: incidence links (subject, speaker, mentioned members, entities),
 * entities (with identity collapse: a name that is a member becomes that member) and typed
 * relations. Returns the entity slugs linked to the fact.
 */
export async function writeFactGraph(
  store: MemoryStore,
  fact: Fact,
  candidate: Candidate,
  at: Date,
): Promise<string[]> {
  const guildId = fact.guildId;
  const links: Link[] = [];
  const link = (nodeType: NodeType, nodeId: string, kind: EdgeKind) =>
    links.push({ guildId, factId: fact.id, nodeType, nodeId, kind, createdAt: at });
  if (fact.subjectId) link(NodeType.USER, fact.subjectId, EdgeKind.SUBJECT_OF);
  if (candidate.speakerId && candidate.speakerId !== fact.subjectId)
    link(NodeType.USER, candidate.speakerId, EdgeKind.SPEAKER_OF);
  for (const userId of candidate.relatedUserIds) {
    if (userId !== fact.subjectId && userId !== candidate.speakerId)
      link(NodeType.USER, userId, EdgeKind.MENTIONED_WITH);
  }
  const kinds = new Map(candidate.entities.map((e) => [normalizeAlias(e.name), e.kind]));
  const slugs: string[] = [];
  for (const entity of candidate.entities) {
    const node = await entityNode(store, guildId, entity.name, entity.kind, at);
    if (!node) continue;
    if (node.type === NodeType.USER) {
      if (node.id !== fact.subjectId) link(NodeType.USER, node.id, EdgeKind.ABOUT_USER);
      continue;
    }
    if (!slugs.includes(node.id)) {
      slugs.push(node.id);
      link(NodeType.ENTITY, node.id, EdgeKind.ABOUT_ENTITY);
      await store.graph.bumpEntityFacts(guildId, node.id, 1);
    }
  }
  for (const relation of candidate.relations) {
    const verb = normalizeVerb(relation.verb);
    if (!verb) continue;
    const [src, dst] = await Promise.all([
      resolveEnd(store, guildId, relation.from, kinds, at),
      resolveEnd(store, guildId, relation.to, kinds, at),
    ]);
    if (!src || !dst || (src.type === dst.type && src.id === dst.id)) continue;
    await store.graph.upsertRelation({
      guildId,
      src,
      dst,
      verb,
      polarity: polarityOf(verb),
      confidence: fact.confidence,
      evidenceFactId: fact.id,
      at,
    });
    for (const node of [src, dst]) {
      if (node.type === NodeType.ENTITY && !slugs.includes(node.id)) {
        slugs.push(node.id);
        link(NodeType.ENTITY, node.id, EdgeKind.ABOUT_ENTITY);
      } else if (
        node.type === NodeType.USER &&
        node.id !== fact.subjectId &&
        node.id !== candidate.speakerId
      ) {
        link(NodeType.USER, node.id, EdgeKind.ABOUT_USER);
      }
    }
  }
  await store.graph.addLinks(links);
  return slugs;
}
