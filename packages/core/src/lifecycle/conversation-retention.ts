import { eachMessagePage } from '../governance/paged-reads.js';
import type { StoredMessage } from '../model/message.js';
import type { MemoryStore } from '../ports/memory-store.js';

/** How long conversation rows are kept, and how many a channel keeps at most. */
export interface ConversationRetention {
  /** Rows created before this instant are deleted. */
  readonly olderThan: Date;
  /** Then the oldest rows of each channel holding more are deleted until it holds this many. */
  readonly maxPerChannel: number;
}

/** A row retention may delete: not waiting for or inside extraction, and not a private session entry. */
export function prunable(m: Pick<StoredMessage, 'status' | 'kind'>): boolean {
  return m.status !== 'pending' && m.status !== 'claimed' && m.kind !== 'session';
}

/** Ids of the rows of a page that are prunable and created before `olderThan`. */
export function agedOut(
  page: readonly Pick<StoredMessage, 'messageId' | 'status' | 'kind' | 'createdAt'>[],
  olderThan: Date,
): string[] {
  return page
    .filter((m) => prunable(m) && m.createdAt.getTime() < olderThan.getTime())
    .map((m) => m.messageId);
}

/**
 * Ids of the oldest prunable rows of a page of one channel (oldest first), at most `excess`:
 * pending and claimed rows stay even when the channel is over its cap.
 */
export function overCap(
  page: readonly Pick<StoredMessage, 'messageId' | 'status' | 'kind'>[],
  excess: number,
): string[] {
  const out: string[] = [];
  for (const m of page) {
    if (out.length >= excess) break;
    if (prunable(m)) out.push(m.messageId);
  }
  return out;
}

/**
 * Applies conversation retention to a guild and returns the rows deleted: first every prunable row
 * older than `olderThan`, then, in each channel holding more than `maxPerChannel` rows, the oldest
 * prunable ones until it fits. Reads page by page (a big guild's history is never loaded whole)
 * and deletes exactly the chosen ids with `deleteMessages`, page by page.
 */
export async function pruneConversation(
  store: MemoryStore,
  guildId: string,
  retention: ConversationRetention,
  pageSize?: number,
): Promise<number> {
  let removed = 0;
  const drop = async (ids: readonly string[]) => {
    if (ids.length === 0) return;
    removed += await store.conversation.deleteMessages(guildId, ids);
    await store.reactions.clearReactions(guildId, ids);
  };
  await eachMessagePage(
    store,
    guildId,
    { createdBefore: retention.olderThan },
    async (page) => {
      await drop(agedOut(page, retention.olderThan));
      return true;
    },
    pageSize,
  );
  const cap = Math.max(0, Math.floor(retention.maxPerChannel));
  for (const { channelId, count } of await store.conversation.channelCounts(guildId)) {
    let excess = count - cap;
    if (excess <= 0) continue;
    await eachMessagePage(
      store,
      guildId,
      { channelId },
      async (page) => {
        const ids = overCap(page, excess);
        await drop(ids);
        excess -= ids.length;
        return excess > 0;
      },
      pageSize,
    );
  }
  return removed;
}
