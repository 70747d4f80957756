import type { StoredMessage } from '@permafrost/core';
import type { EnqueueOutcome } from '@permafrost/core/store';
import { insertTolerant } from './insert-tolerant.js';
import { changeBuckets, findBuckets } from './mongo-buckets.js';
import type { MongoContext } from './mongo-context.js';
import type { IntakeDoc, MessageDoc, QueueItem } from './mongo-conversation-docs.js';
import { newEpoch } from './mongo-keys.js';
import { toMessageDoc } from './mongo-message-mapping.js';
import { bucketKey, itemFor, outcomeFor } from './mongo-queue-state.js';
import { raw } from './raw-doc.js';

/** Intake records older than this belong to an enqueue that died before registering its rows. */
const STALE_INTAKE_MS = 60_000;

interface Row {
  readonly index: number;
  readonly m: StoredMessage;
  readonly doc: MessageDoc;
}

/**
 * Stores rows. Per row: an intake record, the message document (a duplicate key here means the
 * row exists: `duplicate`), its queue state (bucket item, or outcome for rows stored as processed),
 * then the intake record is removed. A crash after the insert leaves the intake record, and
 * `recoverIntake` registers the row later: a pending row is never lost to the queue. Capacity is
 * counted from the buckets (pending items of the guild); a duplicate never takes a slot.
 */
export async function enqueueRows(
  ctx: MongoContext,
  messages: readonly StoredMessage[],
  maxDepth: number,
): Promise<EnqueueOutcome[]> {
  const rows: Row[] = messages.map((m, index) => ({ index, m, doc: { ...toMessageDoc(m), ep: newEpoch() } }));
  const outcomes: EnqueueOutcome[] = rows.map(() => 'duplicate');
  const depth = new Map<string, number>();
  await ctx.each(
    [...new Set(rows.filter((r) => r.m.status === 'pending').map((r) => r.m.guildId))],
    async (g) => {
      const buckets = await findBuckets(ctx, { guildId: { $eq: g } });
      depth.set(
        g,
        buckets.reduce((n, b) => n + b.items.filter((it) => it.st === 'pending').length, 0),
      );
    },
  );
  const seen = new Set<string>();
  let todo = rows.filter((r) => {
    if (seen.has(r.doc._id)) return false;
    seen.add(r.doc._id);
    return true;
  });
  // Each pass stores what fits; duplicates found in a pass free their slots for the next one.
  while (todo.length > 0) {
    const pass: Row[] = [];
    const left: Row[] = [];
    for (const r of todo) {
      const pending = r.m.status === 'pending';
      if (pending && (depth.get(r.m.guildId) ?? 0) >= maxDepth) left.push(r);
      else {
        pass.push(r);
        if (pending) depth.set(r.m.guildId, (depth.get(r.m.guildId) ?? 0) + 1);
      }
    }
    const stored = pass.length > 0 ? await storeRows(ctx, pass) : new Set<number>();
    for (const r of pass) {
      if (stored.has(r.index)) outcomes[r.index] = 'accepted';
      else if (r.m.status === 'pending') depth.set(r.m.guildId, (depth.get(r.m.guildId) ?? 1) - 1);
    }
    if (left.length > 0 && stored.size < pass.length) {
      todo = left;
      continue;
    }
    // Refused for capacity unless the row already exists (a duplicate is reported as such).
    const existing = await ctx.readMany(
      ctx.c.messages,
      left.map((r) => r.doc._id),
    );
    for (const r of left) outcomes[r.index] = existing.has(r.doc._id) ? 'duplicate' : 'over_capacity';
    todo = [];
  }
  return outcomes;
}

/** Intake, insert, register; returns the indexes stored (the others were duplicates). */
async function storeRows(ctx: MongoContext, rows: readonly Row[]): Promise<Set<number>> {
  const intake: IntakeDoc[] = rows.map((r) => ({
    _id: r.doc._id,
    guildId: r.m.guildId,
    subjectKey: r.m.subjectKey,
    at: new Date(),
    item: r.m.status === 'processed' ? null : itemFor(r.m),
    outcome:
      r.m.status === 'processed'
        ? outcomeFor(r.m, { processedAt: r.m.processedAt, attempts: r.m.attempts, next: r.m.nextAttemptAt })
        : null,
  }));
  const busy = await insertTolerant(raw(ctx.c.intake), intake);
  const mine = rows.filter((_, i) => !busy.has(i));
  ctx.wrote('messages');
  const taken = await insertTolerant(
    raw(ctx.c.messages),
    mine.map((r) => r.doc),
  );
  const stored = mine.filter((_, i) => !taken.has(i));
  await register(
    ctx,
    intake.filter((d) => stored.some((r) => r.doc._id === d._id)),
  );
  await ctx.deleteIds(
    ctx.c.intake,
    mine.map((r) => r.doc._id),
  );
  return new Set(stored.map((r) => r.index));
}

/** Adds the queue state of inserted rows: items into their buckets, outcomes for finished rows. */
async function register(ctx: MongoContext, intake: readonly IntakeDoc[]): Promise<void> {
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
 * Finishes enqueues that died between inserting a row and registering its queue state: their
 * intake records are older than a minute. Rows that were never inserted are just forgotten.
 */
export async function recoverIntake(ctx: MongoContext): Promise<number> {
  const stale = await ctx.c.intake.find({ at: { $lt: new Date(Date.now() - STALE_INTAKE_MS) } }).toArray();
  if (stale.length === 0) return 0;
  const [rows, done] = await ctx.all(
    () =>
      ctx.readMany(
        ctx.c.messages,
        stale.map((d) => d._id),
      ),
    () =>
      ctx.readMany(
        ctx.c.outcomes,
        stale.map((d) => d._id),
      ),
  );
  const inserted = stale.filter((d) => rows.has(d._id) && !done.has(d._id));
  await register(ctx, inserted);
  await ctx.deleteIds(
    ctx.c.intake,
    stale.map((d) => d._id),
  );
  return inserted.length;
}
