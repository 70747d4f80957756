import type { Memory } from '@permafrost/core';
import type { Channel, Message, PartialMessage } from 'discord.js';
import type { HandlerGuard } from './handler-guard.js';
import { guildAllowed } from './message-filter.js';
import type { DiscordMemoryOptions } from './options.js';

type Deleted = Pick<Message | PartialMessage, 'id' | 'channelId' | 'guildId' | 'author' | 'channel'>;

/**
 * The memory guild id of a deleted message (which may be partial: an uncached message carries
 * only its ids): the guild, or `dm:<user>` from the author or the DM channel's recipient.
 */
export function deletedMessageGuildId(message: Deleted): string | null {
  if (message.guildId) return message.guildId;
  const channel = message.channel as Channel | null;
  const recipient =
    channel && channel.isDMBased() && 'recipientId' in channel
      ? (channel.recipientId as string | null)
      : null;
  const userId = message.author?.id ?? recipient;
  return userId ? `dm:${userId}` : null;
}

/**
 * Honours Discord deletions: each deleted message is forgotten (row, queue entry, keyword and
 * vector rows, facts only it supported), whether it was cached or not.
 */
export async function forgetDeleted(
  memory: Memory,
  guard: HandlerGuard,
  options: DiscordMemoryOptions,
  messages: readonly Deleted[],
): Promise<void> {
  for (const message of messages) {
    const guildId = deletedMessageGuildId(message);
    if (guildId === null || (message.guildId && !guildAllowed(message.guildId, options))) continue;
    const report = await memory.forgetMessage({
      guildId,
      channelId: message.channelId,
      messageId: message.id,
    });
    if (report.messagesDeleted > 0 || report.factsRetired > 0)
      guard.log('info', 'discord.message_forgotten', {
        guildId,
        messageId: message.id,
        factsRetired: report.factsRetired,
      });
  }
}
