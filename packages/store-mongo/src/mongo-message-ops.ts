import type { Document } from 'mongodb';
import type { MongoContext } from './mongo-context.js';
import type { MessageDoc } from './mongo-docs.js';
import { requireString, validDate } from './mongo-keys.js';

/** `{guildId}` when a guild is given, else no constraint. */
export function guildFilter(guildId: string | undefined): Document {
  return guildId === undefined ? {} : { guildId: { $eq: requireString(guildId, 'guildId') } };
}

/** A pending chat message with raw content whose retry time has come. */
export function eligibleQuery(now: Date): Document {
  const t = validDate(now, 'now');
  return {
    status: 'pending',
    kind: 'chat',
    rawStored: true,
    $or: [{ nextAttemptAt: null }, { nextAttemptAt: { $lte: t } }],
  };
}

export function isEligible(m: MessageDoc, now: Date): boolean {
  return (
    m.status === 'pending' &&
    m.kind === 'chat' &&
    m.rawStored &&
    (m.nextAttemptAt === null || m.nextAttemptAt.getTime() <= now.getTime())
  );
}

/**
 * Deletes message rows by `_id`: their vectors first (same `_id` in message_vectors), then the
 * rows, so an interrupted delete never leaves a vector without its message. Returns rows deleted.
 */
export async function deleteMessages(ctx: MongoContext, keys: readonly string[]): Promise<number> {
  if (keys.length === 0) return 0;
  await ctx.deleteIds(ctx.c.messageVectors, keys);
  return ctx.deleteIds(ctx.c.messages, keys);
}
