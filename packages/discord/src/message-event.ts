import type { MessageEventInput } from '@permafrost/core';
import type { GuildMember, Message, User } from 'discord.js';

/** The memory guild id of a message: the guild, or `dm:<userId>` for a direct message. */
export function memoryGuildId(message: Pick<Message, 'guildId' | 'author'>): string {
  return message.guildId ?? `dm:${message.author.id}`;
}

/** Server nickname → global display name → username. */
export function displayNameOf(user: User, member?: GuildMember | null): string {
  return member?.nickname ?? user.globalName ?? user.username;
}

/** The parent channel id when the message was posted in a thread. */
export function threadParentOf(message: Pick<Message, 'channel'>): string | null {
  const channel = message.channel;
  return channel.isThread() ? channel.parentId : null;
}

/**
 * Translates a discord.js message into the memory's message event. Mentions are users only (no
 * roles, no @everyone); the reply target and thread parent are kept for conversation context.
 */
export function toMessageEvent(message: Message, options: { edited?: boolean } = {}): MessageEventInput {
  const { author } = message;
  return {
    messageId: message.id,
    guildId: memoryGuildId(message),
    channelId: message.channelId,
    authorId: author.id,
    content: message.content,
    createdAt: message.createdAt,
    authorUsername: author.username,
    authorDisplayName: displayNameOf(author, message.member),
    authorIsBot: author.bot || message.webhookId !== null,
    mentionIds: [...message.mentions.users.keys()],
    replyToMessageId: message.reference?.messageId ?? null,
    threadParentId: threadParentOf(message),
    edited: options.edited ?? false,
  };
}
