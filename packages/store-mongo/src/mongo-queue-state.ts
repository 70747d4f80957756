import type { StoredMessage } from '@permafrost/core';
import type { Document } from 'mongodb';
import { DELETE } from './guard-types.js';
import { bucketsById, changeBuckets } from './mongo-buckets.js';
import type { MongoContext } from './mongo-context.js';
import type { MessageDoc, OutcomeDoc, QueueItem } from './mongo-conversation-docs.js';
import { requireString, validDate } from './mongo-keys.js';
import { leaseKey } from './mongo-leases.js';
import { beyond, fromMessageDoc, messageKey, REVERSE_CHRONOLOGICAL } from './mongo-message-mapping.js';

/**
 * Where a row's queue state lives. The message document is written once (content changes only on
 * edit). While a row is pending, claimed or dead its state is an item in the bucket of its
 * (guild, key); once processed it is an outcome document (`_id` = the row's key, inserted once).
 * Rows stored as processed (replies, session rows, hash-only) get their outcome at insert.
 *
 * FerretDB decodes the whole collection for every query that is not `{_id: x}` and rewrites by
 * scanning, so the queue's hot writes touch one small bucket document per batch instead of one
 * row per message, and the big message collection only ever receives inserts.
 */
export const bucketKey = leaseKey;

export function isEligible(item: QueueItem, now: Date): boolean {
  return item.st === 'pending' && item.el && (item.next === null || item.next.getTime() <= now.getTime());
}

export const byAge = (a: QueueItem, b: QueueItem): number =>
  a.at.getTime() - b.at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** `{guildId}` when a guild is given, else no constraint. */
export function guildFilter(guildId: string | undefined): Document {
  return guildId === undefined ? {} : { guildId: { $eq: requireString(guildId, 'guildId') } };
}

export function outcomeFor(
  m: StoredMessage,
  at: { processedAt: Date | null; attempts: number; next: Date | null },
): OutcomeDoc {
  return {
    _id: messageKey(m.guildId, m.messageId),
    guildId: m.guildId,
    messageId: m.messageId,
    createdAt: m.createdAt,
    processedAt: at.processedAt,
    attempts: at.attempts,
    next: at.next,
  };
}

export function itemFor(m: StoredMessage): QueueItem {
  return {
    id: m.messageId,
    at: m.createdAt,
    st: m.status,
    n: m.attempts,
    next: m.nextAttemptAt,
    own: m.leaseOwner,
    until: m.leaseUntil,
    el: m.kind === 'chat' && m.rawStored,
    ins: new Date(),
  };
}

function withItem(m: StoredMessage, item: QueueItem): StoredMessage {
  return {
    ...m,
    status: item.st as StoredMessage['status'],
    attempts: item.n,
    nextAttemptAt: item.next,
    leaseOwner: item.own,
    leaseUntil: item.until,
    processedAt: null,
  };
}

function withOutcome(m: StoredMessage, o: OutcomeDoc): StoredMessage {
  return {
    ...m,
    status: 'processed',
    attempts: o.attempts,
    nextAttemptAt: o.next,
    leaseOwner: null,
    leaseUntil: null,
    processedAt: o.processedAt,
  };
}

/** Rows as StoredMessages with their current queue state (bucket item, else outcome). */
export async function withQueueState(
  ctx: MongoContext,
  docs: readonly MessageDoc[],
): Promise<StoredMessage[]> {
  const queued = docs.filter((d) => d.status !== 'processed');
  const buckets = await bucketsById(
    ctx,
    queued.map((d) => bucketKey(d.guildId, d.subjectKey)),
  );
  const items = new Map<string, QueueItem>();
  for (const b of buckets.values()) for (const it of b.items) items.set(messageKey(b.guildId, it.id), it);
  const outcomes = await ctx.readMany(
    ctx.c.outcomes,
    queued.filter((d) => !items.has(d._id)).map((d) => d._id),
  );
  return docs.map((d) => {
    const m = fromMessageDoc(d);
    const item = items.get(d._id);
    if (item) return withItem(m, item);
    const o = outcomes.get(d._id);
    return o ? withOutcome(m, o) : m;
  });
}

export function storedWithItem(d: MessageDoc, item: QueueItem): StoredMessage {
  return withItem(fromMessageDoc(d), item);
}

/** Removes items from buckets (deleting a bucket left empty). */
export async function dropItems(
  ctx: MongoContext,
  rows: readonly { guildId: string; subjectKey: string; messageId: string }[],
): Promise<void> {
  const byBucket = new Map<string, Set<string>>();
  for (const r of rows) {
    const k = bucketKey(r.guildId, r.subjectKey);
    const set = byBucket.get(k) ?? new Set<string>();
    set.add(r.messageId);
    byBucket.set(k, set);
  }
  await changeBuckets(ctx, [...byBucket.keys()], (b, key) => {
    if (!b) return null;
    const drop = byBucket.get(key) as Set<string>;
    const items = b.items.filter((it) => !drop.has(it.id));
    if (items.length === b.items.length) return null;
    return items.length === 0 ? DELETE : { ...b, items };
  });
}

/**
 * Deletes rows: vectors, queue items and outcomes first, the message last, so an interrupted
 * delete leaves no state pointing at a missing row and running it again finishes it.
 */
export async function deleteMessages(
  ctx: MongoContext,
  rows: readonly { guildId: string; subjectKey: string; messageId: string }[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const keys = rows.map((r) => messageKey(r.guildId, r.messageId));
  await ctx.deleteIds(ctx.c.intake, keys);
  await ctx.deleteIds(ctx.c.messageVectors, keys);
  await dropItems(ctx, rows);
  await ctx.deleteIds(ctx.c.outcomes, keys);
  return ctx.deleteIds(ctx.c.messages, keys);
}

/** The guild's latest raw chat messages (after a position, if given), oldest first, with queue state. */
export async function recentChat(
  ctx: MongoContext,
  guildId: string,
  options: {
    readonly limit: number;
    readonly after?: { readonly createdAt: Date; readonly messageId: string };
  },
): Promise<StoredMessage[]> {
  if (options.limit <= 0) return [];
  const base = { guildId: { $eq: requireString(guildId, 'guildId') }, kind: 'chat', rawStored: true };
  const after = options.after;
  const filter = after
    ? {
        ...base,
        ...beyond('$gt', {
          createdAt: validDate(after.createdAt, 'after.createdAt'),
          messageId: requireString(after.messageId, 'after.messageId'),
        }),
      }
    : base;
  const docs = await ctx.c.messages
    .find(filter, { sort: REVERSE_CHRONOLOGICAL, limit: Math.floor(options.limit), ...ctx.readOpts() })
    .toArray();
  return withQueueState(ctx, docs.reverse() as MessageDoc[]);
}
