import type { BatchKey } from '@permafrost/core';
import type { DueKeysQuery } from '@permafrost/core/store';
import type { Bucket } from './mongo-buckets.js';
import type { IntakeDoc } from './mongo-conversation-docs.js';
import { bucketKey, isEligible } from './mongo-queue-state.js';

/**
 * The keys with work due, oldest first: a key is due when it holds `batchSize` eligible items or
 * its oldest eligible item is older than `olderThan`, and no live lease holds it. Intake records
 * (those not in a bucket, see `guildQueue`) count as pending items of their key (its next claim
 * folds them in).
 */
export function dueKeysOf(
  buckets: readonly Bucket[],
  intake: readonly IntakeDoc[],
  live: ReadonlySet<string>,
  query: Pick<DueKeysQuery, 'batchSize' | 'limit'> & { readonly now: Date; readonly olderThan: number },
): BatchKey[] {
  const keys = new Map(buckets.map((b) => [b._id, { ...b, items: [...b.items] }]));
  for (const d of intake) {
    const bk = bucketKey(d.guildId, d.subjectKey);
    const b = keys.get(bk) ?? { _id: bk, ep: '', guildId: d.guildId, subjectKey: d.subjectKey, items: [] };
    if (d.item) b.items.push(d.item);
    keys.set(bk, b);
  }
  const due: { key: BatchKey; oldest: number; id: string }[] = [];
  for (const b of keys.values()) {
    if (live.has(b._id)) continue;
    const eligible = b.items.filter((it) => isEligible(it, query.now));
    if (eligible.length === 0) continue;
    const oldest = Math.min(...eligible.map((it) => it.at.getTime()));
    if (eligible.length >= query.batchSize || oldest <= query.olderThan)
      due.push({ key: { guildId: b.guildId, subjectKey: b.subjectKey }, oldest, id: b._id });
  }
  return due
    .sort((a, b) => a.oldest - b.oldest || (a.id < b.id ? -1 : 1))
    .slice(0, Math.max(0, query.limit))
    .map((d) => d.key);
}
