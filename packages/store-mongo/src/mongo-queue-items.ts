import { ErrorCode, MemoryError } from '@permafrost/core';
import type { FailRequest, FailResult } from '@permafrost/core/store';
import { DELETE, type Outcome } from './guard-types.js';
import { insertTolerant } from './insert-tolerant.js';
import { type Bucket, changeBucket, findBuckets } from './mongo-buckets.js';
import type { MongoContext } from './mongo-context.js';
import type { OutcomeDoc, QueueItem } from './mongo-conversation-docs.js';
import { randomToken } from './mongo-keys.js';
import { messageKey } from './mongo-message-mapping.js';
import { raw } from './raw-doc.js';

/** What to do with one item: its next state, `drop` to remove it, or null to leave it. */
export type ItemChange = (item: QueueItem) => QueueItem | null | 'drop';

/**
 * One guarded write of a bucket applying `change` to each of its items (a bucket left empty is
 * deleted). `beforeWrite` runs while the bucket version is held, with that version. Returns the
 * bucket before and after the write.
 */
export function changeItems(
  ctx: MongoContext,
  bucket: string,
  change: ItemChange,
  beforeWrite?: (before: Bucket) => Promise<void>,
): Promise<Outcome<Bucket>> {
  return changeBucket(
    ctx,
    bucket,
    (b) => {
      if (!b) return null;
      let touched = false;
      const items: QueueItem[] = [];
      for (const it of b.items) {
        const next = change(it);
        if (next === null) items.push(it);
        else {
          touched = true;
          if (next !== 'drop') items.push(next);
        }
      }
      if (!touched) return null;
      return items.length === 0 ? DELETE : { ...b, items };
    },
    beforeWrite ? { beforeWrite } : {},
  );
}

/** Applies `next` to every item matching `match` in the buckets matching `filter`; returns how many changed. */
export async function sweepItems(
  ctx: MongoContext,
  filter: object,
  match: (item: QueueItem) => boolean,
  next: (item: QueueItem) => QueueItem,
): Promise<number> {
  let changed = 0;
  const buckets = (await findBuckets(ctx, filter)).filter((b) => b.items.some(match));
  await ctx.each(buckets, async (b) => {
    const out = await changeItems(ctx, b._id, (it) => (match(it) ? next(it) : null));
    if (out.changed && out.before) changed += out.before.items.filter(match).length;
  });
  return changed;
}

/**
 * Completes the items of one bucket still claimed by `owner`: while their bucket version is held
 * (so they are ours right now) their outcome documents are inserted, which is the commit point (a
 * row's outcome `_id` is its key: a second completion is a duplicate key and is not counted),
 * and the same guarded write removes them from the bucket. Returns the rows completed.
 *
 * With `after` (the batch's writes, still in flight: `CompleteOptions.after`) the version is taken
 * and confirmed meanwhile, and the outcomes wait for it. A wait long enough for contenders to start
 * doubting the token (a third of its TTL) is followed by a fresh read: a bucket that moved on
 * fails the completion with CONFLICT (the batch is retried) instead of completing from a version
 * that is no longer held.
 */
export async function completeItems(
  ctx: MongoContext,
  guildId: string,
  bucket: string,
  ids: ReadonlySet<string>,
  owner: string,
  at: Date,
  after?: Promise<unknown>,
): Promise<number> {
  const by = `${owner}#${randomToken()}`;
  const done = new Set<string>();
  const mine = (it: QueueItem) => ids.has(it.id) && it.st === 'claimed' && it.own === owner;
  const started = Date.now();
  await changeItems(
    ctx,
    bucket,
    (it) => (mine(it) ? 'drop' : null),
    async (before) => {
      if (after) {
        await after;
        if (Date.now() - started > ctx.guard.ttlMs / 3) {
          const now = await ctx.readMany(ctx.c.buckets, [bucket]);
          if (now.get(bucket)?.ep !== before.ep)
            throw new MemoryError(ErrorCode.CONFLICT, 'the batch queue changed while the batch was writing');
        }
      }
      const outcomes: OutcomeDoc[] = before.items.filter(mine).map((it) => ({
        _id: messageKey(guildId, it.id),
        guildId,
        messageId: it.id,
        createdAt: it.at,
        processedAt: at,
        attempts: it.n,
        next: it.next,
        by,
      }));
      const lost = await insertTolerant(raw(ctx.c.outcomes), outcomes, ctx.opts());
      // A duplicate key is an earlier completion, ours only if this call wrote it (a retried round).
      const earlier = await ctx.readMany(
        ctx.c.outcomes,
        outcomes.filter((_, i) => lost.has(i)).map((o) => o._id),
      );
      for (const [i, o] of outcomes.entries())
        if (!lost.has(i) || earlier.get(o._id)?.by === by) done.add(o.messageId);
    },
  );
  return done.size;
}

/** Records a failed attempt on the items of one bucket still claimed by the request's owner. */
export async function failItems(
  ctx: MongoContext,
  bucket: string,
  ids: ReadonlySet<string>,
  request: FailRequest,
): Promise<FailResult> {
  const result = { retrying: 0, dead: 0, attempts: 0 };
  const now = request.now.getTime();
  const mine = (it: QueueItem) => ids.has(it.id) && it.st === 'claimed' && it.own === request.owner;
  const { before, after, changed } = await changeItems(ctx, bucket, (it) => {
    if (!mine(it)) return null;
    const tries = it.n + 1;
    if (tries >= request.maxAttempts) return { ...it, st: 'dead', n: tries, own: null, until: null };
    return {
      ...it,
      st: 'pending',
      n: tries,
      next: new Date(now + request.baseBackoffMs * 2 ** (tries - 1)),
      own: null,
      until: null,
    };
  });
  if (!changed || !before) return result;
  const failed = new Set(before.items.filter(mine).map((it) => it.id));
  for (const it of after?.items ?? []) {
    if (!failed.has(it.id)) continue;
    if (it.st === 'dead') result.dead++;
    else result.retrying++;
    result.attempts = Math.max(result.attempts, it.n);
  }
  return result;
}
