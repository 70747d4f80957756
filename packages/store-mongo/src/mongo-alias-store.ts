import type { Alias, AliasStore } from '@permafrost/core';
import type { Document } from 'mongodb';
import type { MongoContext } from './mongo-context.js';
import type { AliasDoc } from './mongo-docs.js';
import { docKey, finite, prefixUpperBound, requireId, requireString, validDate } from './mongo-keys.js';

export const aliasKey = (guildId: string, alias: string, userId: string): string =>
  docKey(guildId, alias, userId);

export function fromAliasDoc(d: AliasDoc): Alias {
  return {
    guildId: d.guildId,
    alias: d.alias,
    userId: d.userId,
    source: d.source as Alias['source'],
    weight: d.weight,
    updatedAt: d.updatedAt,
  };
}

export function toAliasDoc(a: Alias): AliasDoc {
  const guildId = requireId(a.guildId, 'guildId');
  const alias = requireId(a.alias, 'alias');
  const userId = requireId(a.userId, 'userId');
  return {
    _id: aliasKey(guildId, alias, userId),
    ep: '',
    guildId,
    alias,
    userId,
    source: requireString(a.source, 'source'),
    weight: finite(a.weight, 'weight'),
    updatedAt: validDate(a.updatedAt, 'updatedAt'),
  };
}

const SORT = { weight: -1, userId: 1, alias: 1 } as const;

export class MongoAliasStore implements AliasStore {
  readonly #ctx: MongoContext;

  constructor(ctx: MongoContext) {
    this.#ctx = ctx;
  }

  async upsert(alias: Alias): Promise<void> {
    await this.#ctx.enter();
    const next = toAliasDoc(alias);
    await this.#ctx.guard.mutate(this.#ctx.c.aliases, next._id, (current) =>
      current && current.weight > next.weight ? { ...current, updatedAt: next.updatedAt } : next,
    );
  }

  find(guildId: string, alias: string, limit: number): Promise<Alias[]> {
    return this.#select(
      { guildId: { $eq: requireString(guildId, 'guildId') }, alias: { $eq: requireString(alias, 'alias') } },
      limit,
    );
  }

  async findByPrefix(guildId: string, prefix: string, limit: number): Promise<Alias[]> {
    const p = requireString(prefix, 'prefix');
    const upper = prefixUpperBound(p);
    const range: Document = upper === null ? { $gte: p } : { $gte: p, $lt: upper };
    const rows = await this.#select(
      { guildId: { $eq: requireString(guildId, 'guildId') }, alias: range },
      Number.POSITIVE_INFINITY,
    );
    return rows.filter((a) => a.alias.startsWith(p)).slice(0, Math.max(0, limit));
  }

  aliasesOf(guildId: string, userId: string): Promise<Alias[]> {
    return this.#select(
      {
        guildId: { $eq: requireString(guildId, 'guildId') },
        userId: { $eq: requireString(userId, 'userId') },
      },
      Number.POSITIVE_INFINITY,
    );
  }

  async #select(filter: Document, limit: number): Promise<Alias[]> {
    await this.#ctx.enter();
    if (limit <= 0) return [];
    const cursor = this.#ctx.c.aliases.find(filter, { sort: SORT, ...this.#ctx.opts() });
    if (Number.isFinite(limit)) cursor.limit(Math.floor(limit));
    return (await cursor.toArray()).map((d) => fromAliasDoc(d as AliasDoc));
  }
}
