import type { Alias } from '@permafrost/core';
import { AliasStoreBase } from '@permafrost/core/store';
import type { Document } from 'mongodb';
import type { MongoContext } from './mongo-context.js';
import { docKey, finite, prefixUpperBound, requireId, requireString, validDate } from './mongo-keys.js';
import type { AliasDoc, AliasEntry } from './mongo-memory-docs.js';

export const aliasKey = (guildId: string, alias: string): string => docKey(guildId, alias);

const byWeight = (a: Alias, b: Alias) =>
  b.weight - a.weight || (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : a.alias < b.alias ? -1 : 1);

function aliasesOfDoc(d: AliasDoc): Alias[] {
  return d.users.map((u) => ({
    guildId: d.guildId,
    alias: d.alias,
    userId: u.userId,
    source: u.source as Alias['source'],
    weight: u.weight,
    updatedAt: u.updatedAt,
  }));
}

function entryOf(a: Alias): AliasEntry {
  return {
    userId: requireId(a.userId, 'userId'),
    source: requireString(a.source, 'source'),
    weight: finite(a.weight, 'weight'),
    updatedAt: validDate(a.updatedAt, 'updatedAt'),
  };
}

/** The document with these members (`userIds` follows `users`). */
export function withUsers(doc: Omit<AliasDoc, 'users' | 'userIds'>, users: AliasEntry[]): AliasDoc {
  return { ...doc, users, userIds: users.map((u) => u.userId) };
}

/**
 * Merges aliases into their documents (one per guild + alias, listing its members): `merge`
 * decides an entry from the current one (if any) and the incoming one.
 */
export async function writeAliases(
  ctx: MongoContext,
  aliases: readonly Alias[],
  merge: (current: AliasEntry | undefined, incoming: AliasEntry) => AliasEntry,
): Promise<void> {
  const byDoc = new Map<string, { guildId: string; alias: string; entries: AliasEntry[] }>();
  for (const a of aliases) {
    const guildId = requireId(a.guildId, 'guildId');
    const alias = requireId(a.alias, 'alias');
    const k = aliasKey(guildId, alias);
    const group = byDoc.get(k) ?? { guildId, alias, entries: [] };
    group.entries.push(entryOf(a));
    byDoc.set(k, group);
  }
  await ctx.guard.mutateMany(ctx.c.aliases, [...byDoc.keys()], (doc, key) => {
    const group = byDoc.get(key) as { guildId: string; alias: string; entries: AliasEntry[] };
    const users = [...(doc?.users ?? [])];
    for (const incoming of group.entries) {
      const i = users.findIndex((u) => u.userId === incoming.userId);
      if (i < 0) users.push(incoming);
      else users[i] = merge(users[i], incoming);
    }
    return withUsers({ _id: key, ep: '', guildId: group.guildId, alias: group.alias }, users);
  });
}

/** Every alias of the guild (or of one member), flattened. */
export async function guildAliases(ctx: MongoContext, guildId: string, userId?: string): Promise<Alias[]> {
  const filter: Document = { guildId: { $eq: guildId } };
  if (userId !== undefined) filter['userIds'] = { $eq: userId };
  const docs = (await ctx.c.aliases.find(filter, ctx.readOpts()).toArray()) as AliasDoc[];
  return docs.flatMap(aliasesOfDoc).filter((a) => userId === undefined || a.userId === userId);
}

export class MongoAliasStore extends AliasStoreBase {
  readonly #ctx: MongoContext;

  constructor(ctx: MongoContext) {
    super();
    this.#ctx = ctx;
  }

  /** The kept weight is the max of old and new, the source follows it; updatedAt is refreshed. */
  override async upsert(alias: Alias): Promise<void> {
    await this.#ctx.enter();
    await writeAliases(this.#ctx, [alias], (current, incoming) =>
      current && current.weight > incoming.weight ? { ...current, updatedAt: incoming.updatedAt } : incoming,
    );
  }

  override async find(guildId: string, alias: string, limit: number): Promise<Alias[]> {
    await this.#ctx.enter();
    const key = aliasKey(requireString(guildId, 'guildId'), requireString(alias, 'alias'));
    const doc = (await this.#ctx.readMany(this.#ctx.c.aliases, [key])).get(key);
    return doc ? aliasesOfDoc(doc).sort(byWeight).slice(0, Math.max(0, limit)) : [];
  }

  /** One read of every alias document (one per guild + alias). */
  override async findMany(
    guildId: string,
    aliases: readonly string[],
    limitPerAlias: number,
  ): Promise<Map<string, Alias[]>> {
    await this.#ctx.enter();
    const g = requireString(guildId, 'guildId');
    const keys = new Map(aliases.map((a) => [aliasKey(g, requireString(a, 'alias')), a]));
    const out = new Map<string, Alias[]>();
    const limit = Math.max(0, limitPerAlias);
    if (keys.size === 0 || limit === 0) return out;
    for (const [key, doc] of await this.#ctx.readMany(this.#ctx.c.aliases, [...keys.keys()])) {
      const found = aliasesOfDoc(doc).sort(byWeight).slice(0, limit);
      if (found.length > 0) out.set(keys.get(key) as string, found);
    }
    return out;
  }

  /** A range on the alias (`$gte` prefix, `$lt` its successor): the prefix is data, never a pattern. */
  override async findByPrefix(guildId: string, prefix: string, limit: number): Promise<Alias[]> {
    await this.#ctx.enter();
    const p = requireString(prefix, 'prefix');
    const upper = prefixUpperBound(p);
    const range: Document = upper === null ? { $gte: p } : { $gte: p, $lt: upper };
    const docs = (await this.#ctx.c.aliases
      .find({ guildId: { $eq: requireString(guildId, 'guildId') }, alias: range }, this.#ctx.readOpts())
      .toArray()) as AliasDoc[];
    return docs
      .filter((d) => d.alias.startsWith(p))
      .flatMap(aliasesOfDoc)
      .sort(byWeight)
      .slice(0, Math.max(0, limit));
  }

  override async aliasesOf(guildId: string, userId: string): Promise<Alias[]> {
    await this.#ctx.enter();
    return (
      await guildAliases(this.#ctx, requireString(guildId, 'guildId'), requireString(userId, 'userId'))
    ).sort(byWeight);
  }
}
