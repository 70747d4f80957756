import type { Message } from 'discord.js';
import { memoryGuildId } from '../message-event.js';

/** The arguments of `memory.promptContext` for one incoming message. */
export interface PromptRequest {
  readonly guildId: string;
  readonly askerId: string;
  readonly text: string;
  /** People mentioned in the text (never bots, never the asker). */
  readonly mentionedIds: string[];
  /** People the conversation involves without a mention: the author of the message replied to. */
  readonly threadParticipantIds: string[];
  readonly tokenBudget?: number;
  /** The channel the reply goes to and the asker: the memory shows only what they may see there. */
  readonly audience: { readonly channelId: string; readonly requesterId: string };
}

const mentionPattern = (id: string) => new RegExp(`<@!?${id}>`, 'g');

/**
 * Maps a message to `promptContext` arguments: the asker, the people it mentions (a reply ping
 * alone is not a mention), the author of the message it replies to, and its text with the bot's own
 * mention removed and other mentions written as names.
 */
export async function promptFromMessage(
  message: Message,
  options: { tokenBudget?: number } = {},
): Promise<PromptRequest> {
  const askerId = message.author.id;
  const botId = message.client.user?.id;
  let text = message.content;
  const mentionedIds: string[] = [];
  for (const [id, user] of message.mentions.users) {
    const pattern = mentionPattern(id);
    const explicit = pattern.test(text);
    if (id === botId) text = text.replace(mentionPattern(id), ' ');
    else if (explicit) {
      const name = message.mentions.members?.get(id)?.displayName ?? user.displayName;
      text = text.replace(mentionPattern(id), `@${name}`);
    }
    if (explicit && !user.bot && id !== askerId && !mentionedIds.includes(id)) mentionedIds.push(id);
  }
  const threadParticipantIds: string[] = [];
  if (message.reference?.messageId) {
    const target = await message.fetchReference().catch(() => null);
    const author = target?.author;
    if (author && !author.bot && author.id !== askerId && !mentionedIds.includes(author.id))
      threadParticipantIds.push(author.id);
  }
  return {
    guildId: memoryGuildId(message),
    askerId,
    text: text.replace(/\s+/g, ' ').trim(),
    mentionedIds,
    threadParticipantIds,
    audience: { channelId: message.channelId, requesterId: askerId },
    ...(options.tokenBudget !== undefined ? { tokenBudget: options.tokenBudget } : {}),
  };
}

/** The bot was mentioned, or the message replies to one of the bot's messages. */
export function isAddressedTo(message: Message, botId: string): boolean {
  if (message.author.id === botId) return false;
  return message.mentions.users.has(botId) || message.mentions.repliedUser?.id === botId;
}
