import type { PromptContext } from '@permafrost/core';
import { createOpenAiChatModel, type LlmConfig } from '@permafrost/core';

export interface ReplyInput {
  readonly question: string;
  readonly askerName: string;
  /** Recent conversation and, when useful, long-term memory (`memory.context(...).block`). */
  readonly block: string;
  /** The long-term part, or null when the two-tier context did not consult it. */
  readonly longTerm: PromptContext | null;
}

export interface ReplyWriter {
  /** True when a chat model writes the replies (cite by similarity); false for the offline summary. */
  readonly usesModel: boolean;
  write(input: ReplyInput): Promise<string>;
}

const MAX_LISTED = 6;

/**
 * An OpenAI-compatible chat model sees the recent conversation and the long-term memory block;
 * without one the reply summarises what the bot remembers about the people involved.
 */
export function createReplyWriter(llm: LlmConfig): ReplyWriter {
  if (llm === null || llm.kind !== 'openai')
    return { usesModel: false, write: async (input) => summaryReply(input) };
  const model = createOpenAiChatModel(llm);
  return {
    usesModel: true,
    async write(input) {
      const system = [
        'You are a long-time member of this Discord server: warm, brief, never making things up.',
        'Quote nothing you were not told. Context follows.',
        input.block,
      ].join('\n');
      const response = await model.complete({
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: `${input.askerName}: ${input.question}` },
        ],
        purpose: 'reply',
        maxTokens: 900,
        responseFormat: { type: 'text' },
      });
      return response.text.trim() || summaryReply(input);
    },
  };
}

export function summaryReply({ askerName, longTerm }: ReplyInput): string {
  const citations = longTerm?.citations ?? [];
  if (citations.length === 0) return `Nothing comes to mind yet, ${askerName} — tell me more about yourself!`;
  const lines = citations.slice(0, MAX_LISTED).map((c) => `• ${c.snippet} [mem:${c.index}]`);
  return [`Here's what I know, ${askerName}:`, ...lines].join('\n');
}
