import type { StoredMessage } from '@permafrost/core';
import type { EnqueueOutcome } from '@permafrost/core/store';
import { insertTolerant } from './insert-tolerant.js';
import type { MongoContext } from './mongo-context.js';
import type { IntakeDoc, MessageDoc } from './mongo-conversation-docs.js';
import { guildQueue, registerIntake } from './mongo-intake.js';
import { newEpoch, randomToken } from './mongo-keys.js';
import { toMessageDoc } from './mongo-message-mapping.js';
import { itemFor, outcomeFor } from './mongo-queue-state.js';
import { raw } from './raw-doc.js';

interface Row {
  readonly index: number;
  readonly m: StoredMessage;
  readonly doc: MessageDoc;
}

/** A guild's queue depth as last known to this process (see `enqueueRows`). */
export type DepthCache = Map<string, number>;

/** Pending items of a guild: bucket items plus unfolded intake records. */
async function readDepth(ctx: MongoContext, guildId: string): Promise<number> {
  const { buckets, intake } = await guildQueue(ctx, { guildId: { $eq: guildId } });
  return buckets.reduce((n, b) => n + b.items.filter((it) => it.st === 'pending').length, intake.length);
}

/**
 * Stores rows: per row an intake record, then the message document (a duplicate key here means
 * the row exists: `duplicate`); the row joins its bucket at the next claim of its key
 * (mongo-intake.ts). Rows stored as processed get their outcome right away.
 *
 * Capacity is the guild's pending items. A guild whose depth this process knows, with room for the
 * rows, is admitted at once and its depth re-read alongside the intake insert (no extra round
 * trip); otherwise, and before refusing, the depth is read first. Several processes enqueueing into
 * one guild at the same moment can overshoot the bound by the rows in flight. A duplicate never
 * takes a slot.
 *
 * With `admitted` (the caller's consent answer, see `EnqueueOptions`), the intake records, which
 * hold no message content, are inserted while it is pending and the rows only once it resolved
 * true: observe pays one round trip for both. When it resolves false (or rejects) the records just
 * inserted are deleted and every row is `withheld` (or the call rejects).
 */
export async function enqueueRows(
  ctx: MongoContext,
  messages: readonly StoredMessage[],
  maxDepth: number,
  known: DepthCache,
  admitted?: Promise<boolean>,
): Promise<EnqueueOutcome[]> {
  const rows: Row[] = messages.map((m, index) => ({
    index,
    m,
    doc: { ...toMessageDoc(m), ep: newEpoch(), ik: randomToken() },
  }));
  const outcomes: EnqueueOutcome[] = rows.map(() => 'duplicate');
  const depth = new Map<string, number>();
  const wanted = new Map<string, number>();
  for (const r of rows)
    if (r.m.status === 'pending') wanted.set(r.m.guildId, (wanted.get(r.m.guildId) ?? 0) + 1);
  const refresh: string[] = [];
  const cold: string[] = [];
  for (const [g, n] of wanted) {
    const d = known.get(g);
    if (d !== undefined && d + n <= maxDepth) {
      depth.set(g, d);
      refresh.push(g);
    } else cold.push(g);
  }
  for (const [g, d] of await readDepths(ctx, cold)) depth.set(g, d);
  const seen = new Set<string>();
  let todo = rows.filter((r) => {
    if (seen.has(r.doc._id)) return false;
    seen.add(r.doc._id);
    return true;
  });
  let fresh: Promise<Map<string, number>> | null = null;
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
    const reread = fresh === null && refresh.length > 0;
    if (reread) {
      fresh = readDepths(ctx, refresh);
      // Awaited below; a call that ends before (withheld, a failed insert) leaves it handled.
      fresh.catch(() => undefined);
    }
    const stored = pass.length > 0 ? await storeRows(ctx, pass, admitted) : new Set<number>();
    if (stored === 'withheld') return rows.map(() => 'withheld');
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
  // A re-read may or may not include this call's rows: the larger figure is kept.
  const reread = fresh === null ? new Map<string, number>() : await fresh;
  for (const [g, d] of depth) known.set(g, Math.max(d, reread.get(g) ?? 0));
  if (known.size > 10_000) known.clear();
  return outcomes;
}

async function readDepths(ctx: MongoContext, guilds: readonly string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  await ctx.each(guilds, async (g) => {
    out.set(g, await readDepth(ctx, g));
  });
  return out;
}

/**
 * Intake records, then the rows; returns the indexes stored (the others were duplicates), or
 * `withheld` when `admitted` resolved false (nothing of the call is left stored).
 */
async function storeRows(
  ctx: MongoContext,
  rows: readonly Row[],
  admitted: Promise<boolean> = Promise.resolve(true),
): Promise<Set<number> | 'withheld'> {
  const intake: IntakeDoc[] = rows.map((r) => ({
    _id: r.doc._id,
    guildId: r.m.guildId,
    subjectKey: r.m.subjectKey,
    at: new Date(),
    ik: r.doc.ik as string,
    item: r.m.status === 'processed' ? null : itemFor(r.m),
    outcome:
      r.m.status === 'processed'
        ? outcomeFor(r.m, { processedAt: r.m.processedAt, attempts: r.m.attempts, next: r.m.nextAttemptAt })
        : null,
  }));
  // A record already there belongs to an enqueue of the same row that is not folded yet.
  const [inserted, gate] = await Promise.allSettled([insertTolerant(raw(ctx.c.intake), intake), admitted]);
  if (inserted.status === 'rejected') throw inserted.reason;
  const busy = inserted.value;
  if (gate.status === 'rejected' || !gate.value) {
    await ctx.deleteIds(
      ctx.c.intake,
      intake.filter((_, i) => !busy.has(i)).map((d) => d._id),
    );
    if (gate.status === 'rejected') throw gate.reason;
    return 'withheld';
  }
  const mine = rows.filter((_, i) => !busy.has(i));
  ctx.wrote('messages');
  const taken = await insertTolerant(
    raw(ctx.c.messages),
    mine.map((r) => r.doc),
  );
  const stored = new Set(mine.filter((_, i) => !taken.has(i)).map((r) => r.doc._id));
  // Finished rows get their outcome now; duplicates' records go (they would count as depth).
  const finished = intake.filter((d) => d.outcome !== null && stored.has(d._id));
  await ctx.all(
    () => registerIntake(ctx, finished),
    () =>
      ctx.deleteIds(
        ctx.c.intake,
        mine.filter((r) => !stored.has(r.doc._id)).map((r) => r.doc._id),
      ),
  );
  await ctx.deleteIds(
    ctx.c.intake,
    finished.map((d) => d._id),
  );
  return new Set(mine.filter((r) => stored.has(r.doc._id)).map((r) => r.index));
}
