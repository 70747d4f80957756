import type { PromptContext } from '@permafrost/core';
import { createOpenAiChatModel, type LlmConfig } from '@permafrost/core';

export interface ReplyInput {
  readonly question: string;
  readonly askerName: string;
  readonly context: PromptContext;
}

/** Writes the answer to a ping. */
export type ReplyWriter = (input: ReplyInput) => Promise<string>;

const MAX_LISTED = 8;

/**
 * With an OpenAI-compatible model configured, the model answers with the memory block in its
 * system prompt and cites facts by echoing `[mem:N]`. Without one (heuristic or no model), the
 * answer is a short summary of what the bot remembers, with the same citation tags.
 */
export function createReplyWriter(llm: LlmConfig): ReplyWriter {
  if (llm === null || llm.kind !== 'openai') return async (input) => summaryReply(input);
  const model = createOpenAiChatModel(llm);
  return async ({ question, askerName, context }) => {
    const system = [
      'You are a friendly member of a Discord server. Answer briefly and naturally.',
      'Background memory about the people in this conversation follows. Use it only when relevant,',
      'and put the [mem:N] tag of each fact you rely on right after the sentence that uses it.',
      context.injectionBlock,
    ].join('\n');
    const response = await model.complete({
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: `${askerName}: ${question}` },
      ],
      purpose: 'reply',
      maxTokens: 600,
      responseFormat: { type: 'text' },
    });
    return response.text.trim() || summaryReply({ question, askerName, context });
  };
}

/** "Here is what I remember: …" with one `[mem:N]` tag per fact. */
export function summaryReply({ askerName, context }: ReplyInput): string {
  if (context.citations.length === 0) return `I don't remember anything about that yet, ${askerName}.`;
  const lines = context.citations.slice(0, MAX_LISTED).map((c) => `• ${c.snippet} [mem:${c.index}]`);
  return [`Here is what I remember, ${askerName}:`, ...lines].join('\n');
}
