import type { FactScope, GuildStats, MemoryTier } from '@permafrost/core';
import type { Collection, Document } from 'mongodb';
import { guildAliases } from './mongo-alias-store.js';
import type { MongoContext } from './mongo-context.js';
import { guildQueue } from './mongo-intake.js';
import { type RawDoc, raw } from './raw-doc.js';

export type Counted = { _id: string | null; n: number };

export function countBy(
  coll: Collection<RawDoc>,
  match: Document,
  field: string,
  ctx: MongoContext,
): Promise<Counted[]> {
  return coll
    .aggregate<Counted>([{ $match: match }, { $group: { _id: `$${field}`, n: { $sum: 1 } } }], ctx.opts())
    .toArray();
}

/** Guild totals; each group is a single-accumulator `$group` (all FerretDB computes correctly). */
export async function guildStats(ctx: MongoContext, guildId: string): Promise<GuildStats> {
  const g = { guildId: { $eq: guildId } };
  const facts = raw(ctx.c.facts);
  const o = ctx.opts();
  const [totalFacts, tiers, scopes, users, entities, relations, aliases, queue, processed] = await ctx.all(
    () => facts.countDocuments(g, o),
    () => countBy(facts, { ...g, active: true }, 'tier', ctx),
    () => countBy(facts, { ...g, active: true }, 'scope', ctx),
    () => facts.distinct('subjectId', { ...g, active: true, subjectId: { $ne: null } }, o),
    () => ctx.c.entities.countDocuments(g, o),
    () => ctx.c.relations.countDocuments({ ...g, validUntil: null }, o),
    async () => (await guildAliases(ctx, guildId)).length,
    () => guildQueue(ctx, g),
    () => ctx.c.outcomes.countDocuments(g, o),
  );
  const byTier: Record<MemoryTier, number> = { short: 0, mid: 0, long: 0, core: 0 };
  for (const r of tiers)
    if (r._id !== null && Object.hasOwn(byTier, r._id)) byTier[r._id as MemoryTier] = r.n;
  const byScope: Record<FactScope, number> = { user: 0, server: 0 };
  for (const r of scopes)
    if (r._id !== null && Object.hasOwn(byScope, r._id)) byScope[r._id as FactScope] = r.n;
  const q = { pending: queue.intake.length, claimed: 0, processed, dead: 0 };
  for (const b of queue.buckets)
    for (const it of b.items) if (it.st === 'pending' || it.st === 'claimed' || it.st === 'dead') q[it.st]++;
  return {
    guildId,
    totalFacts,
    activeFacts: tiers.reduce((n, r) => n + r.n, 0),
    byTier,
    byScope,
    users: users.length,
    entities,
    relations,
    aliases,
    pending: q.pending,
    inFlight: q.claimed,
    deadLetters: q.dead,
    processed: q.processed,
  };
}

/** Guilds with any fact or any chat/reply row. */
export async function listGuildIds(ctx: MongoContext): Promise<string[]> {
  const [fromFacts, fromMessages] = await ctx.all(
    () => ctx.c.facts.distinct('guildId', {}, ctx.opts()),
    () => ctx.c.messages.distinct('guildId', { kind: { $ne: 'session' } }, ctx.opts()),
  );
  return [...new Set<string>([...fromFacts, ...fromMessages])].sort();
}
