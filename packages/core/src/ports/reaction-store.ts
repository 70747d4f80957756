import type { Reaction, ReactionCount, ReactionRef } from '../model/reaction.js';

/** One page of a guild's reactions, in (messageId, userId, emoji) code point order; the filters narrow it. */
export interface ReactionListQuery {
  readonly limit: number;
  /** Only reactions strictly after this key. */
  readonly after?: ReactionRef;
  /** Only this member's reactions. */
  readonly userId?: string;
  /** Only reactions to these messages (at most 1,000 ids). */
  readonly messageIds?: readonly string[];
}

/**
 * Reactions to messages: one row per (guild, message, member, emoji), so counts per emoji and who
 * reacted (for purge, opt-out and export) come from the same rows. Rows hold ids and the emoji,
 * never message text. Every method is scoped to one guild.
 */
export interface ReactionStore {
  /** Records a reaction; false (and the row unchanged) when it is already recorded. */
  addReaction(reaction: Reaction): Promise<boolean>;
  /** Removes one reaction; false when it was not recorded. */
  removeReaction(guildId: string, ref: ReactionRef): Promise<boolean>;
  /** Removes every reaction to these messages (only those with `emoji` when given); returns rows removed. */
  clearReactions(
    guildId: string,
    messageIds: readonly string[],
    options?: { readonly emoji?: string },
  ): Promise<number>;
  /** Removes exactly these reactions (missing ones are skipped); returns rows removed. */
  deleteReactions(guildId: string, refs: readonly ReactionRef[]): Promise<number>;
  /**
   * Per message, how many members reacted with each emoji (messages without reactions are absent;
   * the order of the counts is unspecified). Reactions of `excludeUserIds` are not counted.
   */
  reactionCounts(
    guildId: string,
    messageIds: readonly string[],
    options?: { readonly excludeUserIds?: readonly string[] },
  ): Promise<Map<string, ReactionCount[]>>;
  /** The first `limit` reactions matching the query, in (messageId, userId, emoji) order. */
  listReactions(guildId: string, query: ReactionListQuery): Promise<Reaction[]>;
}
