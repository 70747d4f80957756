import { z } from 'zod';
import { idField, userIdField } from '../validation/fields.js';
import { timestampSchema } from './message.js';

/**
 * Longest emoji string accepted, in code points: a Unicode emoji (ZWJ sequences, flags and tag sequences
 * included) or a custom emoji as `<:name:id>` / `<a:name:id>` (names ≤ 32, ids ≤ 20 characters).
 */
export const MAX_EMOJI_CHARS = 64;

/** Control characters (NUL, line breaks): never part of an emoji. */
const CONTROL = /\p{Cc}/u;

/** One emoji as a reaction key: non-empty, bounded, one line, no spaces around it. */
export const emojiField = z
  .string()
  .min(1)
  .max(MAX_EMOJI_CHARS)
  .refine((s) => !CONTROL.test(s) && s.trim() === s, {
    message: 'an emoji is one token without control characters or surrounding spaces',
  });

/** A member's reaction to a message, as `memory.observeReaction` takes it. */
export const reactionEventSchema = z
  .object({
    guildId: idField,
    channelId: idField,
    messageId: idField,
    userId: userIdField,
    emoji: emojiField,
    /** true: the reaction was added; false: it was removed. */
    added: z.boolean(),
    /** When it happened (default: now). */
    at: timestampSchema.optional(),
    /** The reacting account is a bot (such reactions are ignored). */
    userIsBot: z.boolean().default(false),
  })
  .strict();
export type ReactionEventInput = z.input<typeof reactionEventSchema>;
export type ReactionEvent = z.output<typeof reactionEventSchema>;

/** Removes every reaction of a message (Discord's "remove all"), or only those with `emoji`. */
export const clearReactionsSchema = z
  .object({ guildId: idField, channelId: idField, messageId: idField, emoji: emojiField.optional() })
  .strict();
export type ClearReactionsInput = z.input<typeof clearReactionsSchema>;
export type ClearReactions = z.output<typeof clearReactionsSchema>;

/**
 * A stored reaction: who reacted to which message with which emoji, and when. Reactions hold ids
 * and the emoji only, never message text; a reaction is not a statement of the member who reacted.
 */
export interface Reaction {
  readonly guildId: string;
  readonly channelId: string;
  readonly messageId: string;
  readonly userId: string;
  readonly emoji: string;
  readonly at: Date;
}

/** A reaction by its natural key within a guild: one per (message, member, emoji). */
export type ReactionRef = Pick<Reaction, 'messageId' | 'userId' | 'emoji'>;

/** How many members reacted to a message with one emoji. */
export interface ReactionCount {
  readonly emoji: string;
  readonly count: number;
}

/** The natural key of a reaction as one string (for sets and maps). */
export const reactionRefKey = (r: ReactionRef): string => `${r.messageId}\u0000${r.userId}\u0000${r.emoji}`;

/** Code point order (the byte order of UTF-8, in which SQLite and MongoDB compare strings). */
function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i]?.codePointAt(0) ?? 0) - (y[i]?.codePointAt(0) ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return x.length - y.length < 0 ? -1 : x.length === y.length ? 0 : 1;
}

/** Orders reactions by (messageId, userId, emoji) in code point order: `ReactionStore.listReactions`. */
export function compareReactionRefs(a: ReactionRef, b: ReactionRef): number {
  return (
    compareCodePoints(a.messageId, b.messageId) ||
    compareCodePoints(a.userId, b.userId) ||
    compareCodePoints(a.emoji, b.emoji)
  );
}

/** Counts by emoji, most reacted first, then by emoji (code unit order). */
export function sortCounts(counts: Iterable<ReactionCount>): ReactionCount[] {
  return [...counts].sort(
    (a, b) => b.count - a.count || (a.emoji < b.emoji ? -1 : a.emoji > b.emoji ? 1 : 0),
  );
}
