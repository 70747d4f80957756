import { type PurgePlan, relationRefKey } from '@permafrost/core/store';
import { DELETE } from './guard-types.js';
import { digestKey } from './mongo-admin-mapping.js';
import { aliasKey, withUsers } from './mongo-alias-store.js';
import type { MongoContext } from './mongo-context.js';
import { entityAliasKey } from './mongo-entity-aliases.js';
import { factKey, sourceDoc } from './mongo-fact-mapping.js';
import { entityKey, fromRelationDoc, linkKey } from './mongo-graph-mapping.js';
import type { EntityDoc } from './mongo-memory-docs.js';
import { messageKey } from './mongo-message-mapping.js';
import { deleteMessages } from './mongo-queue-state.js';
import { deleteReactionRefs } from './mongo-reaction-store.js';
import { relationsByRef } from './mongo-relations.js';

/** Removes the entities' slugs from the alias index, then the entities. */
async function deleteEntities(ctx: MongoContext, guildId: string, slugs: readonly string[]): Promise<void> {
  const keys = slugs.map((s) => entityKey(guildId, s));
  const found = [...(await ctx.readMany(ctx.c.entities, keys)).values()] as EntityDoc[];
  for (const e of found) {
    await ctx.guard.mutateMany(
      ctx.c.entityAliases,
      e.aliases.map((a) => entityAliasKey(guildId, a)),
      (doc) => {
        if (!doc?.slugs.includes(e.slug)) return null;
        const rest = doc.slugs.filter((x) => x !== e.slug);
        return rest.length === 0 ? DELETE : { ...doc, slugs: rest };
      },
    );
  }
  await ctx.deleteIds(ctx.c.entities, keys);
}

/**
 * Writes core's purge plan. Writes go children first: vectors, history, links, relations,
 * messages, aliases, digests, foreign sources, entities, and the facts themselves last, so an
 * interrupted purge leaves nothing pointing at a missing fact and planning it again finds the same
 * facts and finishes the job.
 */
export async function applyPurge(ctx: MongoContext, plan: PurgePlan): Promise<void> {
  const g = plan.guildId;
  const c = ctx.c;
  const factKeys = plan.factIds.map((id) => factKey(g, id));
  await ctx.deleteIds(c.factVectors, factKeys);
  if (plan.factIds.length > 0)
    await c.history.deleteMany({ guildId: { $eq: g }, factId: { $in: [...plan.factIds] } }, ctx.opts());
  await ctx.deleteIds(
    c.links,
    plan.links.map((l) => linkKey({ ...l, guildId: g })),
  );
  const deleted = new Set(plan.deleteRelations.map(relationRefKey));
  const trimmed = new Map(plan.trimRelations.map((t) => [relationRefKey(t.relation), t.evidenceFactIds]));
  const relations = await relationsByRef(ctx, g, [
    ...plan.deleteRelations,
    ...plan.trimRelations.map((t) => t.relation),
  ]);
  await ctx.guard.mutateMany(
    c.relations,
    relations.map((r) => r._id),
    (r) => {
      if (!r) return null;
      const k = relationRefKey(fromRelationDoc(r));
      if (deleted.has(k)) return DELETE;
      const evidence = trimmed.get(k);
      return evidence ? { ...r, evidenceFactIds: [...evidence] } : null;
    },
  );
  const messages = await ctx.readMany(
    c.messages,
    plan.messageIds.map((id) => messageKey(g, id)),
  );
  await deleteMessages(ctx, [...messages.values()]);
  await deleteReactionRefs(ctx, g, plan.reactions);
  const aliases = new Map<string, Set<string>>();
  for (const a of plan.aliases) {
    const k = aliasKey(g, a.alias);
    aliases.set(k, (aliases.get(k) ?? new Set()).add(a.userId));
  }
  await ctx.guard.mutateMany(c.aliases, [...aliases.keys()], (doc, k) => {
    const drop = aliases.get(k) as Set<string>;
    if (!doc?.users.some((u) => drop.has(u.userId))) return null;
    const users = doc.users.filter((u) => !drop.has(u.userId));
    return users.length === 0 ? DELETE : withUsers(doc, users);
  });
  await ctx.deleteIds(
    c.digests,
    plan.digestSubjects.map((s) => digestKey(g, s)),
  );
  const sources = new Map(plan.stripSources.map((s) => [factKey(g, s.factId), s.sources.map(sourceDoc)]));
  await ctx.guard.mutateMany(c.facts, [...sources.keys()], (f, k) =>
    f ? { ...f, sources: sources.get(k) ?? f.sources } : null,
  );
  await ctx.guard.mutateMany(
    c.entities,
    plan.unlinkEntities.map((s) => entityKey(g, s)),
    (e) => (e && e.linkedUserId !== null ? { ...e, linkedUserId: null } : null),
  );
  await deleteEntities(ctx, g, plan.deleteEntities);
  await ctx.deleteIds(c.facts, factKeys);
}
