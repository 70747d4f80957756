import { createHash } from 'node:crypto';
import type { Fact } from '@permafrost/core';
import type { NormalizedTextKey } from '@permafrost/core/store';
import type { MongoContext } from './mongo-context.js';
import { fromFactDoc } from './mongo-fact-mapping.js';
import { docKey, requireString } from './mongo-keys.js';
import type { FactDoc } from './mongo-memory-docs.js';

/** The active facts of a subject (null: the server) with exactly this normalized text. */
function textFilter(guildId: string, key: NormalizedTextKey) {
  return {
    guildId: { $eq: requireString(guildId, 'guildId') },
    subjectId: key.subjectId === null ? null : { $eq: requireString(key.subjectId, 'subjectId') },
    normalizedText: { $eq: requireString(key.normalizedText, 'normalizedText') },
    active: true,
  };
}

const textKey = (subjectId: string | null, normalizedText: string) =>
  `${subjectId ?? ''}\u0000${normalizedText}`;

/** The oldest active fact with this subject and normalized text (`facts.findByNormalizedText`). */
export async function findByText(
  ctx: MongoContext,
  guildId: string,
  key: NormalizedTextKey,
  seen: (doc: FactDoc) => void = () => {},
): Promise<Fact | null> {
  const doc = await ctx.c.facts.findOne(textFilter(guildId, key), { sort: { id: 1 }, ...ctx.opts() });
  if (doc) seen(doc);
  return doc ? fromFactDoc(doc) : null;
}

/** findByText for many keys, in key order (`facts.findByNormalizedTexts`). */
export async function findByTexts(
  ctx: MongoContext,
  guildId: string,
  keys: readonly NormalizedTextKey[],
  seen: (doc: FactDoc) => void = () => {},
): Promise<(Fact | null)[]> {
  const filters = keys.map((k) => textFilter(guildId, k));
  if (filters.length === 0) return [];
  // FerretDB scans the collection for an `$or`, but answers each equality filter from its
  // pushdown: there, one read per key, all at once.
  if (ctx.ferretPlan && !ctx.session())
    return ctx.each(filters, async (f) => {
      const doc = await ctx.c.facts.findOne(f, { sort: { id: 1 } });
      if (doc) seen(doc);
      return doc ? fromFactDoc(doc) : null;
    });
  const docs = await ctx.c.facts.find({ $or: filters }, { sort: { id: 1 }, ...ctx.readOpts() }).toArray();
  const first = new Map<string, FactDoc>();
  for (const d of docs) {
    const k = textKey(d.subjectId, d.normalizedText);
    if (!first.has(k)) first.set(k, d);
  }
  return keys.map((k) => {
    const d = first.get(textKey(k.subjectId, k.normalizedText));
    if (d) seen(d);
    return d ? fromFactDoc(d) : null;
  });
}

/**
 * The lock keys `insertDistinct` holds: one per (subject, normalized text), the text hashed so
 * a key stays short whatever the fact's length.
 */
export function textLockKeys(guildId: string, facts: readonly Fact[]): string[] {
  return facts.map((f) =>
    docKey(guildId, f.subjectId, createHash('sha256').update(f.normalizedText).digest('hex').slice(0, 32)),
  );
}
