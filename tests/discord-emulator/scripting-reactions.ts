import type { EmulatorCore } from './core.js';
import type { ApiEmoji, ApiMessage, JsonObject } from './types.js';

/** A reaction emoji as a test names it: a Unicode emoji, or a custom emoji of the guild. */
export type EmojiInput = string | { id: string; name: string; animated?: boolean };

/** Who reacts to which message with what. */
export interface ReactionInput {
  messageId: string;
  userId: string;
  emoji: EmojiInput;
}

const wireEmoji = (e: EmojiInput): ApiEmoji =>
  typeof e === 'string' ? { id: null, name: e } : { id: e.id, name: e.name, animated: e.animated ?? false };

/** Custom emoji are identified by id (their name may change), Unicode emoji by the emoji. */
const emojiKey = (e: ApiEmoji) => e.id ?? `u:${e.name ?? ''}`;

/** Who reacted, per message and emoji (the message object only carries counts). */
const reactors = new WeakMap<ApiMessage, Map<string, { emoji: ApiEmoji; users: Set<string> }>>();

function ledger(message: ApiMessage) {
  let byEmoji = reactors.get(message);
  if (!byEmoji) {
    byEmoji = new Map();
    reactors.set(message, byEmoji);
  }
  return byEmoji;
}

/** Rewrites the message's `reactions` from the ledger, as a GET of the message would show them. */
function refresh(core: EmulatorCore, message: ApiMessage): void {
  const list = [...ledger(message).values()].filter((r) => r.users.size > 0);
  const botId = core.world.botUser.id;
  if (list.length === 0) delete message.reactions;
  else
    message.reactions = list.map((r) => ({
      count: r.users.size,
      count_details: { burst: 0, normal: r.users.size },
      me: r.users.has(botId),
      me_burst: false,
      burst_colors: [],
      emoji: { ...r.emoji },
    }));
}

/** The ids every reaction event carries (guild id only in guilds). */
function where(message: ApiMessage): JsonObject {
  const base: JsonObject = { channel_id: message.channel_id, message_id: message.id };
  if (message.guild_id !== undefined) base['guild_id'] = message.guild_id;
  return base;
}

/**
 * Reactions as Discord sends them: a new reaction dispatches MESSAGE_REACTION_ADD (with the
 * member in guilds and the message author's id), a removal MESSAGE_REACTION_REMOVE; adding a
 * reaction a user already has, or removing one they do not, sends nothing (Discord answers 204
 * and stays silent). Returns the sessions the event went to (0 when nothing changed).
 */
export function addReaction(core: EmulatorCore, input: ReactionInput): number {
  const { world, publish, notifier } = core;
  const message = world.message(input.messageId);
  world.user(input.userId);
  const emoji = wireEmoji(input.emoji);
  const byEmoji = ledger(message);
  const entry = byEmoji.get(emojiKey(emoji)) ?? { emoji, users: new Set<string>() };
  if (entry.users.has(input.userId)) return 0;
  entry.users.add(input.userId);
  byEmoji.set(emojiKey(emoji), entry);
  refresh(core, message);
  const data: JsonObject = {
    ...where(message),
    user_id: input.userId,
    emoji: { ...emoji },
    message_author_id: message.author.id,
    burst: false,
    burst_colors: [],
    type: 0,
  };
  if (message.guild_id !== undefined && world.guild(message.guild_id).members.has(input.userId))
    data['member'] = { ...world.memberPayload(message.guild_id, input.userId) };
  const sent = publish.reaction('MESSAGE_REACTION_ADD', message, data);
  notifier.notify();
  return sent;
}

export function removeReaction(core: EmulatorCore, input: ReactionInput): number {
  const { world, publish, notifier } = core;
  const message = world.message(input.messageId);
  const emoji = wireEmoji(input.emoji);
  const entry = ledger(message).get(emojiKey(emoji));
  if (!entry?.users.delete(input.userId)) return 0;
  refresh(core, message);
  const data = { ...where(message), user_id: input.userId, emoji: { ...entry.emoji }, burst: false, type: 0 };
  const sent = publish.reaction('MESSAGE_REACTION_REMOVE', message, data);
  notifier.notify();
  return sent;
}

/** A moderator removes every reaction (MESSAGE_REACTION_REMOVE_ALL) or one emoji's (_REMOVE_EMOJI). */
export function clearReactions(core: EmulatorCore, messageId: string, emoji?: EmojiInput): number {
  const { world, publish, notifier } = core;
  const message = world.message(messageId);
  const byEmoji = ledger(message);
  let sent: number;
  if (emoji === undefined) {
    byEmoji.clear();
    refresh(core, message);
    sent = publish.reaction('MESSAGE_REACTION_REMOVE_ALL', message, where(message));
  } else {
    const wire = wireEmoji(emoji);
    const entry = byEmoji.get(emojiKey(wire));
    byEmoji.delete(emojiKey(wire));
    refresh(core, message);
    sent = publish.reaction('MESSAGE_REACTION_REMOVE_EMOJI', message, {
      ...where(message),
      emoji: { ...(entry?.emoji ?? wire) },
    });
  }
  notifier.notify();
  return sent;
}
