import { type ReactionCount, sortCounts } from '../model/reaction.js';
import type { MemoryStore } from '../ports/memory-store.js';
import type { ConversationMessage } from './message-view.js';

const CHUNK = 1000;

async function countsOf(
  store: MemoryStore,
  guildId: string,
  ids: readonly string[],
  excludeUserIds: readonly string[],
): Promise<Map<string, ReactionCount[]>> {
  const out = new Map<string, ReactionCount[]>();
  const options = excludeUserIds.length > 0 ? { excludeUserIds } : {};
  for (let i = 0; i < ids.length; i += CHUNK)
    for (const [id, counts] of await store.reactions.reactionCounts(
      guildId,
      ids.slice(i, i + CHUNK),
      options,
    ))
      out.set(id, counts);
  return out;
}

/**
 * Reaction counts of messages of one guild, by message id (messages without reactions absent),
 * each list most reacted first. Reactions of members who opted out are not counted. One store
 * read when nothing was reacted to; the consent list is read only when something was.
 */
export async function reactionCountsOf(
  store: MemoryStore,
  guildId: string,
  messageIds: readonly string[],
): Promise<Map<string, readonly ReactionCount[]>> {
  const ids = [...new Set(messageIds)];
  if (ids.length === 0) return new Map();
  let counts = await countsOf(store, guildId, ids, []);
  if (counts.size === 0) return counts;
  const optedOut = await store.consent.optedOutUsers(guildId);
  if (optedOut.length > 0) counts = await countsOf(store, guildId, [...counts.keys()], optedOut);
  return new Map([...counts].map(([id, list]) => [id, sortCounts(list)]));
}

/** The messages (of one guild) with their reaction counts. */
export async function withReactions(
  store: MemoryStore,
  guildId: string,
  messages: readonly ConversationMessage[],
): Promise<ConversationMessage[]> {
  const counts = await reactionCountsOf(
    store,
    guildId,
    messages.map((m) => m.messageId),
  );
  return messages.map((m) => {
    const reactions = counts.get(m.messageId);
    return reactions ? { ...m, reactions } : m;
  });
}

/** Σ of a message's reaction counts. */
export const totalReactions = (counts: readonly ReactionCount[] | undefined): number =>
  (counts ?? []).reduce((n, c) => n + c.count, 0);
