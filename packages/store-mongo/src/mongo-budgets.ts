import { findAny } from './find-any.js';
import type { MongoContext } from './mongo-context.js';
import type { CounterDoc } from './mongo-governance-docs.js';
import { docKey } from './mongo-keys.js';
import { raw } from './raw-doc.js';

/**
 * Token budgets as per-writer counters. Each store object (one per process, in practice) adds its
 * charges to counter documents of its own (`_id` = guild, period, writer): no other process ever
 * changes them, so a charge is one `$inc` with upsert and needs no version token (a guarded write
 * costs two round trips more on a server whose updates are not atomic). This process's charges
 * to one counter go one at a time (FerretDB applies an update by rewriting the document). A
 * period's usage is the sum of its counters, counters written before this layout (one per guild
 * and period, guarded) included.
 */
export async function chargeCounters(
  ctx: MongoContext,
  writer: string,
  guildId: string,
  periods: readonly string[],
  tokens: number,
): Promise<void> {
  const byKey = new Map(periods.map((p) => [docKey(guildId, p, writer), p]));
  if (byKey.size === 0) return;
  const release = await ctx.guard.locks.acquire([...byKey.keys()].map((k) => `budgets\u0000${k}`));
  try {
    ctx.wrote('budgets');
    await raw(ctx.c.budgets).bulkWrite(
      [...byKey].map(([key, period]) => ({
        updateOne: {
          filter: { _id: key },
          update: { $inc: { tokens }, $setOnInsert: { guildId, period } },
          upsert: true,
        },
      })),
      { ordered: false, ...ctx.opts() },
    );
  } finally {
    release();
  }
}

/** Tokens charged to each period (every writer's counters summed); 0 where nothing was charged. */
export async function counterTotals(
  ctx: MongoContext,
  guildId: string,
  periods: readonly string[],
): Promise<Map<string, number>> {
  const docs = await findAny<CounterDoc>(
    ctx,
    raw(ctx.c.budgets),
    { guildId: { $eq: guildId } },
    [...new Set(periods)].map((p) => ({ period: { $eq: p } })),
  );
  const totals = new Map<string, number>();
  for (const d of docs) totals.set(d.period, (totals.get(d.period) ?? 0) + d.tokens);
  return totals;
}
