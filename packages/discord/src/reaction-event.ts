import type { ReactionEventInput } from '@permafrost/core';
import type {
  Client,
  Message,
  MessageReaction,
  PartialMessage,
  PartialMessageReaction,
  PartialUser,
  User,
} from 'discord.js';
import { deletedMessageGuildId } from './message-deletion.js';
import type { DiscordMemoryOptions } from './options.js';

type AnyReaction = MessageReaction | PartialMessageReaction;
type AnyMessage = Message | PartialMessage;

/**
 * A reaction's emoji as one stable string: the Unicode emoji itself, or a custom emoji in
 * Discord's own message syntax, `<:name:id>` (`<a:name:id>` when animated). Null when Discord
 * sent no usable emoji.
 */
export function reactionEmoji(emoji: Pick<AnyReaction['emoji'], 'id' | 'name' | 'animated'>): string | null {
  if (emoji.id) return `<${emoji.animated ? 'a' : ''}:${emoji.name ?? '_'}:${emoji.id}>`;
  return emoji.name && emoji.name.length > 0 ? emoji.name : null;
}

/**
 * Whether reactions in this message's channel are observed: the guild allowlist, DMs only with
 * `observeDMs`, and ignored channels (a thread is ignored when its parent is). The message may be
 * partial: only its ids are read, and the channel comes from the client's cache.
 */
export function reactionChannelAllowed(
  client: Client,
  message: AnyMessage,
  options: DiscordMemoryOptions,
): boolean {
  if (message.guildId === null) return options.observeDMs ?? false;
  if (options.guilds && !options.guilds.includes(message.guildId)) return false;
  const ignored = options.ignoredChannelIds ?? [];
  if (ignored.includes(message.channelId)) return false;
  const channel = client.channels.cache.get(message.channelId);
  const parent = channel?.isThread() ? channel.parentId : null;
  return parent === null || !ignored.includes(parent);
}

/**
 * The memory event of a reaction added or removed, or null when it is not observed: a bot's
 * reaction (added ones: a partial user is fetched to find out), a member holding an ignored role,
 * a channel that is not observed, an emoji Discord did not name.
 */
export async function toReactionEvent(
  client: Client,
  reaction: AnyReaction,
  user: User | PartialUser,
  added: boolean,
  options: DiscordMemoryOptions,
): Promise<ReactionEventInput | null> {
  const message = reaction.message;
  if (!reactionChannelAllowed(client, message, options)) return null;
  const emoji = reactionEmoji(reaction.emoji);
  if (emoji === null) return null;
  const known = user.partial && added ? await user.fetch().catch(() => null) : user;
  if (!known || known.bot === true || known.id === client.user?.id) return null;
  const roles = options.ignoredRoleIds ?? [];
  if (roles.length > 0 && message.guild?.members.cache.get(known.id)?.roles.cache.hasAny(...roles))
    return null;
  return {
    guildId: message.guildId ?? `dm:${known.id}`,
    channelId: message.channelId,
    messageId: message.id,
    userId: known.id,
    emoji,
    added,
  };
}

/** The memory ids of a message whose reactions were all (or one emoji's) removed, or null when not observed. */
export function clearedReactionsOf(
  client: Client,
  message: AnyMessage,
  options: DiscordMemoryOptions,
): { guildId: string; channelId: string; messageId: string } | null {
  if (!reactionChannelAllowed(client, message, options)) return null;
  const guildId = deletedMessageGuildId(message);
  return guildId === null ? null : { guildId, channelId: message.channelId, messageId: message.id };
}
