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
  /**
   * The score a message holding every query term once, at the index's average length, would get
   * (for BM25: the sum of the query terms' idf, terms found nowhere included); the same on every
   * hit of one search. Optional: without it, core weighs keyword evidence against the best hit only.
   */
  readonly fullMatchScore?: number;
  /**
   * The messages around the hit, as `channelWindows(guildId, [hit], options.windowsAround)` reads
   * them, when the search was asked for them and the store read them with it (optional).
   */
  readonly window?: MessageWindow;
}

/** Options of `searchText`. */
export interface MessageTextSearchOptions {
  /**
   * The caller reads this many messages on each side of every hit next (`channelWindows`): a store
   * may read them with the search and hand them over on the hits (`MessageTextHit.window`), in the
   * same snapshot as the hits. Stores that do not leave the hits without windows.
   */
  readonly windowsAround?: number;
}

/** Where a message row sits in (createdAt, messageId) order. */
export interface MessagePosition {
  readonly createdAt: Date;
  readonly messageId: string;
}

/** One page of a guild's message rows; the optional fields narrow it (all must hold). */
export interface MessageListQuery {
  readonly limit: number;
  /** Only rows strictly after this position. */
  readonly after?: MessagePosition;
  readonly channelId?: string;
  readonly authorId?: string;
  /** Only rows created strictly before this instant. */
  readonly createdBefore?: Date;
}

/** A stored message to read around (see `channelWindows`). */
export interface WindowAnchor {
  readonly channelId: string;
  readonly messageId: string;
}

/** The messages of a channel around one anchor, each side oldest first. */
export interface MessageWindow {
  readonly before: StoredMessage[];
  readonly after: StoredMessage[];
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
  /**
   * For each anchor, in order: up to `window` messages of its channel just before it and up to
   * `window` just after it, as `channelHistory` with `beforeMessageId` / `afterMessageId` reads
   * them. One call for many anchors (conversation search reads a window around every match).
   */
  channelWindows(guildId: string, anchors: readonly WindowAnchor[], window: number): Promise<MessageWindow[]>;
  /** The latest `limit` messages of an author in a guild, oldest first. */
  authorHistory(guildId: string, authorId: string, limit: number): Promise<StoredMessage[]>;
  channelStats(guildId: string, channelId: string): Promise<ChannelStats>;
  /** Messages of the guild containing ANY of the analysed terms, BM25-ranked (raw content only). */
  searchText(
    guildId: string,
    terms: readonly string[],
    limit: number,
    options?: MessageTextSearchOptions,
  ): Promise<MessageTextHit[]>;
  /** Messages by id (request order, missing dropped). */
  getMessages(guildId: string, messageIds: readonly string[]): Promise<StoredMessage[]>;
  /**
   * Message rows of the guild (any status or kind, with their current queue status), oldest first
   * by (createdAt, messageId): the first `limit` that match the query. Page with `after` set to
   * the last row's position.
   */
  listMessages(guildId: string, query: MessageListQuery): Promise<StoredMessage[]>;
  /** How many message rows (any status or kind) each channel of the guild holds; channels without rows are absent. */
  channelCounts(guildId: string): Promise<{ readonly channelId: string; readonly count: number }[]>;
  /**
   * Deletes these messages (any status or kind: a pending or claimed row leaves the queue) with
   * their keyword rows and vectors. On a store with `physicalPurge` the bytes are gone from its
   * files once the enclosing transaction commits. Returns rows deleted.
   */
  deleteMessages(guildId: string, messageIds: readonly string[]): Promise<number>;
  /** Deletes every message of a channel except the newest `keepLatest` (0 clears it). */
  trimChannel(guildId: string, channelId: string, keepLatest: number): Promise<number>;
}
