import type { Document } from 'mongodb';
import { insertTolerant } from './insert-tolerant.js';
import { type Bucket, changeBuckets, findBuckets } from './mongo-buckets.js';
import type { MongoContext } from './mongo-context.js';
import type { IntakeDoc, MessageDoc, QueueItem } from './mongo-conversation-docs.js';
import { messageKey } from './mongo-message-mapping.js';
import { bucketKey } from './mongo-queue-state.js';
import { raw } from './raw-doc.js';

/**
 * The queue's intake. `enqueue` inserts an intake record, then the row (the row carries the
 * record's token `ik`), and registers nothing else: on `observe`'s path that is two inserts and no
 * guarded bucket write. The record is the row's queue entry until a worker claims its key, which
 * folds the key's records into the bucket while it holds the key's lease (`foldIntake`): nothing
 * completes a row of that key meanwhile, so a record is registered at most once. Until then the
 * record counts as a pending item (due keys, queue depth, counts).
 *
 * A record is registered only if its row exists with the same token: a record left by an enqueue
 * that found the row already there (a duplicate) or died before inserting it is discarded, the
 * latter once it is older than `STALE_INTAKE_MS` (its insert may still be in flight before that).
 */
const STALE_INTAKE_MS = 60_000;

/**
 * Queue state of a guild (or of every guild): its buckets, and the intake records of pending rows
 * not in a bucket yet (a fold that died before removing its records left rows in both).
 */
export async function guildQueue(
  ctx: MongoContext,
  guildFilter: Document,
): Promise<{ buckets: Bucket[]; intake: IntakeDoc[] }> {
  const [buckets, records] = await ctx.all(
    () => findBuckets(ctx, guildFilter),
    async () => (await ctx.c.intake.find(guildFilter, ctx.readOpts()).toArray()) as IntakeDoc[],
  );
  const queued = new Set(buckets.flatMap((b) => b.items.map((it) => messageKey(b.guildId, it.id))));
  return { buckets, intake: records.filter((d) => d.item !== null && !queued.has(d._id)) };
}

/** Adds the queue state of inserted rows: items into their buckets, outcomes for finished rows. */
export async function registerIntake(ctx: MongoContext, intake: readonly IntakeDoc[]): Promise<void> {
  const finished = intake.flatMap((d) => (d.outcome ? [d.outcome] : []));
  if (finished.length > 0) await insertTolerant(raw(ctx.c.outcomes), finished);
  const byBucket = new Map<string, { guildId: string; subjectKey: string; items: QueueItem[] }>();
  for (const d of intake) {
    if (!d.item) continue;
    const k = bucketKey(d.guildId, d.subjectKey);
    const b = byBucket.get(k) ?? { guildId: d.guildId, subjectKey: d.subjectKey, items: [] };
    b.items.push(d.item);
    byBucket.set(k, b);
  }
  if (byBucket.size === 0) return;
  await changeBuckets(ctx, [...byBucket.keys()], (b, key) => {
    const add = byBucket.get(key) as { guildId: string; subjectKey: string; items: QueueItem[] };
    const present = new Set((b?.items ?? []).map((it) => it.id));
    const fresh = add.items.filter((it) => !present.has(it.id));
    if (fresh.length === 0) return null;
    const items = [...(b?.items ?? []), ...fresh];
    return b
      ? { ...b, items }
      : { _id: key, ep: '', guildId: add.guildId, subjectKey: add.subjectKey, items };
  });
}

/**
 * Registers the records whose row this intake inserted and that are not completed, discards
 * duplicates and stale records, and leaves young records whose row has not arrived yet. With
 * `leavePending`, records of pending rows that exist are left too (for their key's next claim).
 */
async function settle(ctx: MongoContext, docs: readonly IntakeDoc[], leavePending = false): Promise<number> {
  if (docs.length === 0) return 0;
  const ids = docs.map((d) => d._id);
  const [rows, done] = await ctx.all(
    () => ctx.readMany(ctx.c.messages, ids),
    () => ctx.readMany(ctx.c.outcomes, ids),
  );
  const staleBefore = Date.now() - STALE_INTAKE_MS;
  const register: IntakeDoc[] = [];
  const drop: string[] = [];
  for (const d of docs) {
    const row = rows.get(d._id) as MessageDoc | undefined;
    if (leavePending && row && d.item !== null) continue;
    if (row && row.ik === d.ik && !done.has(d._id)) register.push(d);
    if (row || d.at.getTime() < staleBefore) drop.push(d._id);
  }
  await registerIntake(ctx, register);
  await ctx.deleteIds(ctx.c.intake, drop);
  return register.length;
}

/** Folds one key's intake records into its bucket; only while holding the key's lease. */
export async function foldIntake(ctx: MongoContext, guildId: string, subjectKey: string): Promise<number> {
  const docs = (await ctx.c.intake
    .find({ guildId: { $eq: guildId }, subjectKey: { $eq: subjectKey } }, ctx.readOpts())
    .toArray()) as IntakeDoc[];
  return settle(ctx, docs);
}

/**
 * Maintenance sweep: records older than `STALE_INTAKE_MS`. A stored-as-processed row's record
 * (its enqueue died before writing the outcome) gets its outcome; records of pending rows are left
 * to their key's next claim, which they make due; the rest are discarded.
 */
export async function sweepIntake(ctx: MongoContext): Promise<number> {
  const stale = (await ctx.c.intake
    .find({ at: { $lt: new Date(Date.now() - STALE_INTAKE_MS) } }, ctx.readOpts())
    .toArray()) as IntakeDoc[];
  return settle(ctx, stale, true);
}
