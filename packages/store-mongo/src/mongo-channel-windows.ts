import type { StoredMessage } from '@permafrost/core';
import type { MessageWindow, WindowAnchor } from '@permafrost/core/store';
import type { Document } from 'mongodb';
import type { MongoContext } from './mongo-context.js';
import type { MessageDoc } from './mongo-conversation-docs.js';
import { requireString } from './mongo-keys.js';
import { beyond, CHRONOLOGICAL, messageKey, REVERSE_CHRONOLOGICAL } from './mongo-message-mapping.js';
import { withQueueState } from './mongo-queue-state.js';

/** Window reads in flight at once (each a small indexed query on one channel). */
const WINDOW_READS = 128;

/**
 * `channelWindows` in three steps whatever the number of anchors: the anchors by key, then both
 * sides of every window concurrently, then the queue state of every message read. Each side is
 * what `channelHistory` reads: an anchor that is not a message of that channel has nothing after
 * it and, before it, the channel's latest messages.
 */
export async function readWindows(
  ctx: MongoContext,
  guildId: string,
  anchors: readonly WindowAnchor[],
  window: number,
): Promise<MessageWindow[]> {
  const g = requireString(guildId, 'guildId');
  const limit = Math.max(0, Math.floor(window));
  const keyed = anchors.map((a) => ({
    channelId: requireString(a.channelId, 'channelId'),
    key: messageKey(g, requireString(a.messageId, 'messageId')),
  }));
  if (keyed.length === 0) return [];
  if (limit === 0) return keyed.map(() => ({ before: [], after: [] }));
  const found = await ctx.readMany(
    ctx.c.messages,
    keyed.map((k) => k.key),
  );
  const sides = keyed.flatMap((k) => {
    const at = found.get(k.key) as MessageDoc | undefined;
    const anchor = at && at.channelId === k.channelId ? at : undefined;
    const channel: Document = { guildId: { $eq: g }, channelId: { $eq: k.channelId } };
    const before: Document = anchor ? { ...channel, ...beyond('$lt', anchor) } : channel;
    const after: Document | null = anchor ? { ...channel, ...beyond('$gt', anchor) } : null;
    return [
      { filter: before, sort: REVERSE_CHRONOLOGICAL, reverse: true },
      { filter: after, sort: CHRONOLOGICAL, reverse: false },
    ];
  });
  const docs = await ctx.each(
    sides,
    async (side) => {
      if (side.filter === null) return [];
      const rows = (await ctx.c.messages
        .find(side.filter, { sort: side.sort, limit, ...ctx.readOpts() })
        .toArray()) as MessageDoc[];
      return side.reverse ? rows.reverse() : rows;
    },
    WINDOW_READS,
  );
  const unique = new Map<string, MessageDoc>();
  for (const list of docs) for (const d of list) unique.set(d._id, d);
  const all = [...unique.values()];
  const states = await withQueueState(ctx, all);
  const byKey = new Map<string, StoredMessage>(all.map((d, i) => [d._id, states[i] as StoredMessage]));
  const stored = (list: readonly MessageDoc[]) => list.map((d) => byKey.get(d._id) as StoredMessage);
  return keyed.map((_, i) => ({
    before: stored(docs[2 * i] ?? []),
    after: stored(docs[2 * i + 1] ?? []),
  }));
}
