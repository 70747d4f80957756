import type { GuildSnapshot } from '@permafrost/core';
import type { ImportPlan } from '@permafrost/core/store';
import type { AnyBulkWriteOperation, Collection, Document } from 'mongodb';
import { fromDigestDoc, optOutKey, toDigestDoc } from './mongo-admin-mapping.js';
import { guildAliases, writeAliases } from './mongo-alias-store.js';
import type { MongoContext } from './mongo-context.js';
import { aliasWrites, indexEntityAliases } from './mongo-entity-aliases.js';
import { fromFactDoc, fromHistoryDoc, toFactDoc, toHistoryDoc } from './mongo-fact-mapping.js';
import type { DigestDoc } from './mongo-governance-docs.js';
import {
  fromEntityDoc,
  fromLinkDoc,
  fromRelationDoc,
  toEntityDoc,
  toLinkDoc,
  toRelationDoc,
} from './mongo-graph-mapping.js';
import { newEpoch } from './mongo-keys.js';
import type { EntityDoc, FactDoc, HistoryDoc, LinkDoc, RelationDoc } from './mongo-memory-docs.js';
import { relationsByRef } from './mongo-relations.js';
import { type RawDoc, raw } from './raw-doc.js';

/** Every fact (incl. inactive), history, link, relation, entity, alias, digest and opt-out of a guild, in a stable order. */
export async function exportGuild(ctx: MongoContext, guildId: string): Promise<GuildSnapshot> {
  const g = { guildId: { $eq: guildId } };
  const o = ctx.readOpts();
  const c = ctx.c;
  const [facts, history, links, relations, entities, aliases, digests, optOuts] = await ctx.all(
    () => c.facts.find(g, { sort: { id: 1 }, ...o }).toArray() as Promise<FactDoc[]>,
    () => c.history.find(g, { sort: { factId: 1, at: 1, _id: 1 }, ...o }).toArray() as Promise<HistoryDoc[]>,
    () =>
      c.links.find(g, { sort: { factId: 1, nodeType: 1, nodeId: 1, kind: 1 }, ...o }).toArray() as Promise<
        LinkDoc[]
      >,
    () => c.relations.find(g, { sort: { validFrom: 1, _id: 1 }, ...o }).toArray() as Promise<RelationDoc[]>,
    () => c.entities.find(g, { sort: { slug: 1 }, ...o }).toArray() as Promise<EntityDoc[]>,
    () => guildAliases(ctx, guildId),
    () => c.digests.find(g, { sort: { subjectId: 1 }, ...o }).toArray() as Promise<DigestDoc[]>,
    () => c.optOuts.find(g, { sort: { userId: 1 }, ...o }).toArray(),
  );
  const known = new Set(facts.map((f) => f.id));
  return {
    guildId,
    facts: facts.map(fromFactDoc),
    history: history.filter((h) => known.has(h.factId)).map(fromHistoryDoc),
    links: links.map(fromLinkDoc),
    relations: relations.map(fromRelationDoc),
    entities: entities.map(fromEntityDoc),
    aliases: aliases.sort((a, b) =>
      a.alias < b.alias ? -1 : a.alias > b.alias ? 1 : a.userId < b.userId ? -1 : 1,
    ),
    digests: digests.map(fromDigestDoc),
    optOuts: optOuts.map((d) => ({ userId: d.userId, at: d.at })),
  } satisfies GuildSnapshot;
}

async function replaceAll(
  ctx: MongoContext,
  coll: Collection<RawDoc>,
  docs: readonly Document[],
): Promise<void> {
  if (docs.length === 0) return;
  const ops: AnyBulkWriteOperation<RawDoc>[] = docs.map(({ _id, ...rest }) => ({
    replaceOne: { filter: { _id }, replacement: rest, upsert: true },
  }));
  await ctx.bulkUpsert(coll, ops);
}

/**
 * Writes core's import plan, upserting by `_id`. Children go first and the facts last, so an
 * interrupted import shows no half-imported fact and running it again converges. The history of
 * the facts the plan names is replaced; the relations it replaces are deleted before its own are
 * written.
 */
export async function applyImport(ctx: MongoContext, plan: ImportPlan): Promise<void> {
  const g = plan.guildId;
  const c = ctx.c;
  const stamp = <D extends Document>(d: D) => ({ ...d, ep: newEpoch() });
  await replaceAll(
    ctx,
    raw(c.optOuts),
    plan.optOuts.map((o) => ({ _id: optOutKey(g, o.userId), guildId: g, userId: o.userId, at: o.at })),
  );
  await writeAliases(ctx, plan.aliases, (_current, incoming) => incoming);
  await indexEntityAliases(ctx, aliasWrites(plan.entities.map((e) => ({ ...e, guildId: g }))));
  await replaceAll(
    ctx,
    raw(c.entities),
    plan.entities.map((e) => stamp(toEntityDoc(e))),
  );
  await replaceAll(
    ctx,
    raw(c.digests),
    plan.digests.map((d) => toDigestDoc(d)),
  );
  const historyFacts = [...new Set(plan.history.map((h) => h.factId))];
  if (historyFacts.length > 0)
    await c.history.deleteMany({ guildId: { $eq: g }, factId: { $in: historyFacts } }, ctx.opts());
  const history = plan.history.map((h) => toHistoryDoc(h));
  if (history.length > 0) await c.history.insertMany(history, { ordered: true, ...ctx.opts() });
  await replaceAll(ctx, raw(c.links), plan.links.map(toLinkDoc));
  const replaced = await relationsByRef(ctx, g, plan.replaceRelations);
  await ctx.deleteIds(
    c.relations,
    replaced.map((r) => r._id),
  );
  await replaceAll(
    ctx,
    raw(c.relations),
    plan.relations.map((r) => stamp(toRelationDoc(r, `import:${r.validFrom.getTime()}`))),
  );
  await replaceAll(
    ctx,
    raw(c.facts),
    plan.facts.map((f) => stamp(toFactDoc(f))),
  );
}
