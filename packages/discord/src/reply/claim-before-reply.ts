import type { Memory } from '@permafrost/core';
import type { Message } from 'discord.js';
import { memoryGuildId } from '../message-event.js';

/**
 * Several bot processes see the same message; only the one that wins the claim should answer.
 * Resolves true for the winner. A claim expires after `ttlSeconds` (30), so another process can
 * answer if the winner dies before replying.
 */
export function claimBeforeReply(
  memory: Memory,
  message: Pick<Message, 'id' | 'channelId' | 'guildId' | 'author'>,
  options: { ttlSeconds?: number } = {},
): Promise<boolean> {
  return memory.claims.tryClaim({
    guildId: memoryGuildId(message),
    channelId: message.channelId,
    messageId: message.id,
    ...(options.ttlSeconds !== undefined ? { ttlSeconds: options.ttlSeconds } : {}),
  });
}
