import type { StoredMessage } from '../model/message.js';

export interface ChannelStats {
  readonly count: number;
  readonly firstAt: Date | null;
  readonly lastAt: Date | null;
  readonly botMessages: number;
  readonly uniqueAuthors: number;
}

export interface MessageTextHit {
  readonly message: StoredMessage;
  /** BM25 relevance, higher is better. */
  readonly score: number;
}

/** Conversation history over the same message rows the ingest queue uses. */
export interface ConversationStore {
  /**
   * Messages of a channel, oldest first: the latest `limit` (optionally only those before
   * `beforeMessageId`), or with `afterMessageId` the first `limit` strictly after that message
   * (empty when it is unknown). Both together bound the range on each side. Order is
   * (createdAt, messageId). Conversation search uses `afterMessageId` to read the replies that
   * follow a match.
   */
  channelHistory(
    guildId: string,
    channelId: string,
    options: { readonly limit: number; readonly beforeMessageId?: string; readonly afterMessageId?: string },
  ): Promise<StoredMessage[]>;
  /** The latest `limit` messages of an author in a guild, oldest first. */
  authorHistory(guildId: string, authorId: string, limit: number): Promise<StoredMessage[]>;
  channelStats(guildId: string, channelId: string): Promise<ChannelStats>;
  /** Messages of the guild containing ANY of the analysed terms, BM25-ranked (raw content only). */
  searchText(guildId: string, terms: readonly string[], limit: number): Promise<MessageTextHit[]>;
  /** Messages by id (request order, missing dropped). */
  getMessages(guildId: string, messageIds: readonly string[]): Promise<StoredMessage[]>;
  /** Deletes non-pending messages older than `olderThan`, then the oldest non-pending rows of each channel until it holds at most `maxPerChannel`. */
  prune(
    guildId: string,
    options: { readonly olderThan: Date; readonly maxPerChannel: number },
  ): Promise<number>;
  /**
   * Deletes these messages (any status or kind: a pending or claimed row leaves the queue) with
   * their keyword rows and vectors. On a store with `physicalPurge` the bytes are gone from its
   * files once the enclosing transaction commits. Returns rows deleted.
   */
  deleteMessages(guildId: string, messageIds: readonly string[]): Promise<number>;
  /** Deletes every message of a channel except the newest `keepLatest` (0 clears it). */
  trimChannel(guildId: string, channelId: string, keepLatest: number): Promise<number>;
}
