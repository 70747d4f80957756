import type { Fact } from '@permafrost/core';
import type { FactPageOptions } from '@permafrost/core/store';
import type { Document } from 'mongodb';
import type { MongoContext } from './mongo-context.js';
import { fromFactDoc } from './mongo-fact-mapping.js';
import { requireIds, requireString } from './mongo-keys.js';
import type { FactDoc } from './mongo-memory-docs.js';

/**
 * One page of the guild's facts (any validity) matching `filter`, in id order: the paged reads
 * governance walks (`statedBy`, `quoting`).
 */
export async function factPage(
  ctx: MongoContext,
  guildId: string,
  filter: Document,
  page: FactPageOptions,
): Promise<Fact[]> {
  const query: Document = { guildId: { $eq: requireString(guildId, 'guildId') }, ...filter };
  if (page.afterId !== undefined) query['id'] = { $gt: requireString(page.afterId, 'afterId') };
  const limit = Math.max(0, Math.floor(page.limit));
  if (limit === 0) return [];
  const docs = await ctx.c.facts.find(query, { sort: { id: 1 }, limit, ...ctx.readOpts() }).toArray();
  return docs.map((d) => fromFactDoc(d as FactDoc));
}

/** How many history entries these facts have together. */
export async function countHistory(
  ctx: MongoContext,
  guildId: string,
  factIds: readonly string[],
): Promise<number> {
  const ids = [...new Set(requireIds(factIds, 'fact id'))];
  if (ids.length === 0) return 0;
  return ctx.c.history.countDocuments(
    { guildId: { $eq: requireString(guildId, 'guildId') }, factId: { $in: ids } },
    ctx.opts(),
  );
}

/** Uniform sample of up to `n` items without replacement (partial Fisher–Yates). */
export function sample<T>(items: T[], n: number): T[] {
  const k = Math.min(n, items.length);
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(Math.random() * (items.length - i));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items.slice(0, k);
}

/** topStrength's order: strength, then most recently reinforced, then id. */
export function byStrength(a: FactDoc, b: FactDoc): number {
  if (a.strength !== b.strength) return b.strength - a.strength;
  const ta = a.lastReinforcedAt.getTime();
  const tb = b.lastReinforcedAt.getTime();
  if (ta !== tb) return tb - ta;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
