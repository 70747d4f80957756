import type { Memory, PromptContext } from '@permafrost/core';
import type { Message, MessageMentionOptions } from 'discord.js';
import { memoryGuildId } from '../message-event.js';
import { splitMessage } from '../text/split-message.js';

/** What a reply needs from the prompt context: its citations and the `[mem:N]` → jump-link rewrite. */
export type CitationSource = Pick<PromptContext, 'citations' | 'applyCitations'>;

export interface ReplyOptions {
  /**
   * `tags` (default): the model echoed `[mem:N]` tags; they become jump links and unknown tags
   * are dropped. `cite`: sentences are attributed to facts by similarity (`memory.cite`).
   * `none`: the text is sent as is.
   */
  readonly citations?: 'tags' | 'cite' | 'none';
  /** Who the reply may ping (default: nobody but the person replied to). */
  readonly allowedMentions?: MessageMentionOptions;
}

/**
 * Replies to a message with jump-link citations, split into parts under Discord's 2,000-character
 * limit, and records every part in the conversation history as the bot's own reply.
 */
export async function replyWithCitations(
  memory: Memory,
  message: Message,
  text: string,
  ctx: CitationSource | null,
  options: ReplyOptions = {},
): Promise<Message[]> {
  const mode = options.citations ?? 'tags';
  let content = text;
  if (ctx && mode === 'tags') content = ctx.applyCitations(text);
  else if (ctx && mode === 'cite') content = (await memory.cite(text, ctx)).text;
  const allowedMentions = options.allowedMentions ?? { parse: [], repliedUser: true };
  const sent: Message[] = [];
  for (const part of splitMessage(content.trim() || '…')) {
    const previous = sent.at(-1);
    const reply = previous
      ? await previous.reply({ content: part, allowedMentions: { parse: [], repliedUser: false } })
      : await message.reply({ content: part, allowedMentions, failIfNotExists: false });
    sent.push(reply);
    await memory.conversation.recordReply({
      guildId: memoryGuildId(message),
      channelId: message.channelId,
      content: part,
      messageId: reply.id,
      botId: reply.author.id,
      replyToMessageId: previous?.id ?? message.id,
    });
  }
  return sent;
}
