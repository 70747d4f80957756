import type { PurgeReport } from '@permafrost/core';
import { DELETE } from './doc-guard.js';
import { digestKey, optOutKey } from './mongo-admin-mapping.js';
import { guildAliases, removeMemberAliases } from './mongo-alias-store.js';
import type { MongoContext } from './mongo-context.js';
import type { EntityDoc, FactDoc, RelationDoc } from './mongo-docs.js';
import { entityAliasKey } from './mongo-entity-aliases.js';
import { entityKey } from './mongo-graph-mapping.js';
import { deleteMessages } from './mongo-queue-state.js';

/**
 * Counts (dry run) or removes every trace of a user in a guild. Writes go children first: vectors,
 * history, links, relations, messages, aliases, digests (theirs and those quoting them), foreign
 * sources, entity links, and the facts themselves last, so an interrupted purge leaves nothing
 * pointing at a missing fact and running it again finds the same facts and finishes the job. The
 * opt-out row is kept.
 */
export async function purgeUser(
  ctx: MongoContext,
  guildId: string,
  userId: string,
  dryRun: boolean,
): Promise<PurgeReport> {
  const g = { guildId: { $eq: guildId } };
  const o = ctx.opts();
  const c = ctx.c;
  const owned = (await c.facts
    .find(
      { ...g, $or: [{ subjectId: { $eq: userId } }, { 'attribution.speakerId': { $eq: userId } }] },
      { projection: { _id: 1, id: 1 }, ...o },
    )
    .toArray()) as Pick<FactDoc, '_id' | 'id'>[];
  const ownedIds = owned.map((f) => f.id);
  const ownedSet = new Set(ownedIds);
  const factKeys = owned.map((f) => f._id);
  const linkFilter = {
    ...g,
    $or: [{ factId: { $in: ownedIds } }, { nodeType: 'user', nodeId: { $eq: userId } }],
  };
  const touchesUser = (r: RelationDoc) =>
    (r.srcType === 'user' && r.srcId === userId) || (r.dstType === 'user' && r.dstId === userId);
  const relationFilter = {
    ...g,
    $or: [
      { srcType: 'user', srcId: { $eq: userId } },
      { dstType: 'user', dstId: { $eq: userId } },
      { evidenceFactIds: { $in: ownedIds } },
    ],
  };
  // Profile digests of subjects the user stated facts about may quote the user: dropped too.
  const quoting = (await c.facts
    .find({ ...g, 'attribution.speakerId': { $eq: userId } }, { projection: { _id: 1, subjectId: 1 }, ...o })
    .toArray()) as Pick<FactDoc, '_id' | 'subjectId'>[];
  const digestKeys = [...new Set<string | null>([userId, ...quoting.map((f) => f.subjectId)])].map((s) =>
    digestKey(guildId, s),
  );
  const [history, factVectors, links, relations, aliases, digest, messages, sourced, entities, optOut] =
    await ctx.all(
      () => c.history.countDocuments({ ...g, factId: { $in: ownedIds } }, o),
      () => ctx.readMany(c.factVectors, factKeys),
      () => c.links.countDocuments(linkFilter, o),
      () => c.relations.find(relationFilter, o).toArray() as Promise<RelationDoc[]>,
      async () => (await guildAliases(ctx, guildId, userId)).length,
      () => ctx.readMany(c.digests, digestKeys),
      () =>
        c.messages
          .find(
            { ...g, authorId: { $eq: userId } },
            { projection: { _id: 1, guildId: 1, subjectKey: 1, messageId: 1 }, ...o },
          )
          .toArray(),
      () =>
        c.facts
          .find(
            { ...g, 'sources.authorId': { $eq: userId } },
            { projection: { _id: 1, id: 1, sources: 1 }, ...o },
          )
          .toArray() as Promise<Pick<FactDoc, '_id' | 'id' | 'sources'>[]>,
      () =>
        c.entities.find({ ...g, linkedUserId: { $eq: userId } }, { projection: { _id: 1 }, ...o }).toArray(),
      () => ctx.readMany(c.optOuts, [optOutKey(guildId, userId)]),
    );
  const messageKeys = messages.map((m) => m._id);
  const messageVectors = await ctx.readMany(c.messageVectors, messageKeys);
  const relationChange = (r: RelationDoc | null) => {
    if (!r) return null;
    const remaining = r.evidenceFactIds.filter((id) => !ownedSet.has(id));
    if (touchesUser(r) || (r.evidenceFactIds.length > 0 && remaining.length === 0)) return DELETE;
    return remaining.length !== r.evidenceFactIds.length ? { ...r, evidenceFactIds: remaining } : null;
  };
  const foreign = sourced.filter((f) => !ownedSet.has(f.id));
  const orphans = await orphanedEntities(
    ctx,
    guildId,
    ownedIds,
    relations.filter((r) => relationChange(r) === DELETE),
  );
  const report: PurgeReport = {
    guildId,
    userId,
    dryRun,
    facts: owned.length,
    vectors: factVectors.size + messageVectors.size,
    history,
    links,
    relations: relations.filter((r) => relationChange(r) === DELETE).length,
    aliases,
    digests: digest.size,
    messages: messages.length,
    sourcesStripped: foreign.reduce((n, f) => n + f.sources.filter((s) => s.authorId === userId).length, 0),
    entitiesUnlinked: entities.length,
    entities: orphans.length,
    budgetRows: 0,
    optOutKept: optOut.size > 0,
  };
  if (dryRun) return report;

  await ctx.deleteIds(c.factVectors, factKeys);
  await c.history.deleteMany({ ...g, factId: { $in: ownedIds } }, o);
  await c.links.deleteMany(linkFilter, o);
  await ctx.guard.mutateMany(
    c.relations,
    relations.map((r) => r._id),
    relationChange,
  );
  await deleteMessages(ctx, messages);
  await removeMemberAliases(ctx, guildId, userId);
  await ctx.deleteIds(c.digests, digestKeys);
  await ctx.guard.mutateMany(
    c.facts,
    foreign.map((f) => f._id),
    (f) => (f ? { ...f, sources: f.sources.filter((s) => s.authorId !== userId) } : null),
  );
  await ctx.guard.mutateMany(
    c.entities,
    entities.map((e) => e._id),
    (e) => (e && e.linkedUserId === userId ? { ...e, linkedUserId: null } : null),
  );
  for (const e of orphans) {
    await ctx.guard.mutateMany(
      c.entityAliases,
      e.aliases.map((a) => entityAliasKey(guildId, a)),
      (doc) => {
        if (!doc?.slugs.includes(e.slug)) return null;
        const slugs = doc.slugs.filter((x) => x !== e.slug);
        return slugs.length === 0 ? DELETE : { ...doc, slugs };
      },
    );
  }
  await ctx.deleteIds(
    c.entities,
    orphans.map((e) => e._id),
  );
  await ctx.deleteIds(c.facts, factKeys);
  return report;
}

/**
 * Entities that only the purged facts' links or the removed relations pointed at: they would keep
 * the member's words (names of things they talked about), so the purge removes them too.
 */
async function orphanedEntities(
  ctx: MongoContext,
  guildId: string,
  ownedIds: readonly string[],
  doomed: readonly RelationDoc[],
): Promise<EntityDoc[]> {
  const g = { guildId: { $eq: guildId } };
  const o = ctx.opts();
  const c = ctx.c;
  const candidates = new Set<string>(
    (
      (await c.links
        .find(
          { ...g, nodeType: 'entity', factId: { $in: [...ownedIds] } },
          { projection: { nodeId: 1 }, ...o },
        )
        .toArray()) as { nodeId: string }[]
    ).map((l) => l.nodeId),
  );
  for (const r of doomed) {
    if (r.srcType === 'entity') candidates.add(r.srcId);
    if (r.dstType === 'entity') candidates.add(r.dstId);
  }
  const doomedIds = new Set(doomed.map((r) => String(r._id)));
  const out: EntityDoc[] = [];
  for (const slug of candidates) {
    const linked = await c.links.countDocuments(
      { ...g, nodeType: 'entity', nodeId: { $eq: slug }, factId: { $nin: [...ownedIds] } },
      { limit: 1, ...o },
    );
    if (linked > 0) continue;
    const related = (await c.relations
      .find(
        {
          ...g,
          $or: [
            { srcType: 'entity', srcId: { $eq: slug } },
            { dstType: 'entity', dstId: { $eq: slug } },
          ],
        },
        { projection: { _id: 1 }, ...o },
      )
      .toArray()) as { _id: unknown }[];
    if (related.some((r) => !doomedIds.has(String(r._id)))) continue;
    const found = await ctx.readMany(c.entities, [entityKey(guildId, slug)]);
    for (const e of found.values()) out.push(e);
  }
  return out;
}
