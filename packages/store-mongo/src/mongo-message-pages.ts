import type { StoredMessage } from '@permafrost/core';
import type { MessageListQuery } from '@permafrost/core/store';
import type { Document } from 'mongodb';
import type { MongoContext } from './mongo-context.js';
import type { MessageDoc } from './mongo-conversation-docs.js';
import { requireString, validDate } from './mongo-keys.js';
import { beyond, CHRONOLOGICAL } from './mongo-message-mapping.js';
import { withQueueState } from './mongo-queue-state.js';
import { countBy } from './mongo-stats.js';
import { raw } from './raw-doc.js';

/** One page of a guild's message rows (with their queue state), oldest first, narrowed by the query. */
export async function messagePage(
  ctx: MongoContext,
  guildId: string,
  query: MessageListQuery,
): Promise<StoredMessage[]> {
  const limit = Math.max(0, Math.floor(query.limit));
  if (limit === 0) return [];
  const filter: Document = { guildId: { $eq: requireString(guildId, 'guildId') } };
  if (query.channelId !== undefined)
    filter['channelId'] = { $eq: requireString(query.channelId, 'channelId') };
  if (query.authorId !== undefined) filter['authorId'] = { $eq: requireString(query.authorId, 'authorId') };
  const bounds: Document[] = [];
  if (query.createdBefore !== undefined)
    bounds.push({ createdAt: { $lt: validDate(query.createdBefore, 'createdBefore') } });
  if (query.after !== undefined) {
    bounds.push(
      beyond('$gt', {
        createdAt: validDate(query.after.createdAt, 'after.createdAt'),
        messageId: requireString(query.after.messageId, 'after.messageId'),
      }),
    );
  }
  const docs = await ctx.c.messages
    .find(bounds.length > 0 ? { ...filter, $and: bounds } : filter, {
      sort: CHRONOLOGICAL,
      limit,
      ...ctx.readOpts(),
    })
    .toArray();
  return withQueueState(ctx, docs as MessageDoc[]);
}

/** Message rows per channel of the guild (any status or kind). */
export async function channelCounts(
  ctx: MongoContext,
  guildId: string,
): Promise<{ channelId: string; count: number }[]> {
  const rows = await countBy(
    raw(ctx.c.messages),
    { guildId: { $eq: requireString(guildId, 'guildId') } },
    'channelId',
    ctx,
  );
  return rows.flatMap((r) => (r._id === null ? [] : [{ channelId: r._id, count: r.n }]));
}
