import type { Fact } from '../model/fact.js';
import type { PurgePlan } from '../model/governance-plans.js';
import type { Link, Relation } from '../model/graph.js';
import { relationRefKey, relationRefOf } from '../model/graph.js';
import type { MemoryStore } from '../ports/memory-store.js';
import {
  allFactPages,
  allReactionPages,
  chunked,
  chunkedCount,
  eachMessagePage,
  PAGE,
} from './paged-reads.js';
import {
  decideRelations,
  entityCandidates,
  entityNodes,
  isMemberFact,
  orphanedEntities,
  type PurgeTallies,
  purgedLinks,
  purgedReactions,
  quotedDigestSubjects,
  stripMemberSources,
} from './purge-rules.js';

/** "Every link of the node": larger than any guild's link count. */
const ALL = Number.MAX_SAFE_INTEGER;

export interface PlannedPurge {
  readonly plan: PurgePlan;
  readonly tallies: PurgeTallies;
}

/** Every fact about the member or stated by them (any validity), in id order. */
async function memberFacts(store: MemoryStore, guildId: string, userId: string): Promise<Fact[]> {
  const byId = new Map<string, Fact>();
  let cursor: string | undefined;
  do {
    const page = await store.facts.list({
      guildId,
      subjectIds: [userId],
      validity: 'any',
      limit: PAGE,
      ...(cursor ? { cursor } : {}),
    });
    for (const f of page.items) byId.set(f.id, f);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  for (const f of await allFactPages((p) => store.facts.statedBy(guildId, userId, p))) byId.set(f.id, f);
  return [...byId.values()]
    .filter((f) => isMemberFact(f, userId))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The entities among the candidates that nothing staying refers to (see `orphanedEntities`). */
async function orphans(
  store: MemoryStore,
  guildId: string,
  candidates: readonly string[],
  factLinks: readonly Link[],
  purged: ReadonlySet<string>,
  deleted: readonly Relation[],
): Promise<string[]> {
  if (candidates.length === 0) return [];
  const existing = new Set(
    (await chunked(candidates, (c) => store.graph.getEntities(guildId, c))).map((e) => e.slug),
  );
  // Per node, one link more than the purged facts hold shows whether any other fact links it.
  const purgedPerEntity = new Map<string, number>();
  for (const l of factLinks)
    if (l.nodeType === 'entity') purgedPerEntity.set(l.nodeId, (purgedPerEntity.get(l.nodeId) ?? 0) + 1);
  const limitPerNode = Math.max(0, ...purgedPerEntity.values()) + 1;
  const links = await chunked(candidates, (c) =>
    store.graph.linksForNodes(guildId, entityNodes(c), { validity: 'any', limitPerNode }),
  );
  const relations = await chunked(candidates, (c) => store.graph.relationsTouching(guildId, entityNodes(c)));
  return orphanedEntities({
    candidates,
    existing,
    links,
    relations,
    purgedFactIds: purged,
    deletedRelations: new Set(deleted.map(relationRefKey)),
  });
}

/**
 * Reads what a member's purge reaches (paged) and decides it: the plan a store applies and the
 * counts of its report. A dry run stops here, so it reports exactly what the purge would do.
 */
export async function planPurge(store: MemoryStore, guildId: string, userId: string): Promise<PlannedPurge> {
  const facts = await memberFacts(store, guildId, userId);
  const factIds = facts.map((f) => f.id);
  const purged = new Set(factIds);
  const member = { type: 'user' as const, id: userId };
  const factLinks = await chunked(factIds, (c) => store.graph.linksForFacts(guildId, c));
  const memberLinks = await store.graph.linksForNodes(guildId, [member], {
    validity: 'any',
    limitPerNode: ALL,
  });
  const reached = [
    ...(await store.graph.relationsTouching(guildId, [member])),
    ...(await chunked(factIds, (c) => store.graph.relationsCiting(guildId, c))),
  ];
  const { deleted, trimmed } = decideRelations(reached, userId, purged);
  const quoting = await allFactPages((p) => store.facts.quoting(guildId, userId, p));
  const sources = stripMemberSources(quoting, userId, purged);
  const digestSubjects: (string | null)[] = [];
  for (const subject of quotedDigestSubjects(userId, facts))
    if (await store.digests.getDigest(guildId, subject)) digestSubjects.push(subject);
  const messageIds: string[] = [];
  await eachMessagePage(store, guildId, { authorId: userId }, (page) => {
    for (const m of page) messageIds.push(m.messageId);
    return true;
  });
  const reactions = purgedReactions([
    ...(await allReactionPages(store, guildId, { userId })),
    ...(await chunked(messageIds, (c) => allReactionPages(store, guildId, { messageIds: c }))),
  ]);
  const candidates = entityCandidates(factLinks, deleted);
  const plan: PurgePlan = {
    guildId,
    userId,
    factIds,
    links: purgedLinks(factLinks, memberLinks),
    deleteRelations: deleted.map(relationRefOf),
    trimRelations: trimmed,
    stripSources: sources.strip,
    aliases: (await store.aliases.aliasesOf(guildId, userId)).map((a) => ({ alias: a.alias, userId })),
    digestSubjects,
    messageIds,
    unlinkEntities: (await store.graph.entitiesLinkedTo(guildId, [userId])).map((e) => e.slug),
    deleteEntities: await orphans(store, guildId, candidates, factLinks, purged, deleted),
    reactions,
  };
  const vectors =
    (await chunkedCount(factIds, (c) => store.vectors.count(guildId, 'fact', c))) +
    (await chunkedCount(messageIds, (c) => store.vectors.count(guildId, 'message', c)));
  const tallies: PurgeTallies = {
    vectors,
    history: await chunkedCount(factIds, (c) => store.facts.countHistory(guildId, c)),
    sourcesStripped: sources.removed,
    optOutKept: await store.consent.isOptedOut(guildId, userId),
  };
  return { plan, tallies };
}
