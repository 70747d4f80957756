import type { Memory } from '@permafrost/core';
import { jumpLink, type PromptRequest } from '@permafrost/discord';

/** What the reply writer uses from `memory.promptContext`. */
export interface ReplyContext {
  readonly injectionBlock: string;
  readonly citations: readonly {
    readonly index: number;
    readonly snippet: string;
    readonly url: string | null;
  }[];
  applyCitations(text: string): string;
}

interface WithPromptContext {
  promptContext(request: PromptRequest): Promise<ReplyContext>;
}

const TAG = /[ \t]?\[mem:(\d{1,6})\]/g;

/**
 * `memory.promptContext(request)`. Until the facade has it, the facts of the people in the
 * conversation stand in, cited the same way.
 */
export async function memoryContext(memory: Memory, request: PromptRequest): Promise<ReplyContext> {
  const facade = memory as Partial<WithPromptContext>;
  if (typeof facade.promptContext === 'function') return facade.promptContext(request);
  const people = [request.askerId, ...request.mentionedIds, ...request.threadParticipantIds];
  const facts = (
    await Promise.all(
      people.map((subjectId) =>
        memory.facts.getAll({ guildId: request.guildId, subjectId, limit: 4 }).catch(() => []),
      ),
    )
  ).flat();
  const citations = facts.map((fact, i) => {
    const source = fact.sources[0];
    return {
      index: i + 1,
      snippet: fact.text,
      url: source ? source.url || jumpLink(fact.guildId, source.channelId, source.messageId) : null,
    };
  });
  const byIndex = new Map(citations.map((c) => [c.index, c]));
  return {
    injectionBlock: citations.map((c) => `- [mem:${c.index}] ${c.snippet}`).join('\n'),
    citations,
    applyCitations: (text) =>
      text.replace(TAG, (match, n: string) => {
        const c = byIndex.get(Number(n));
        return c?.url ? `${match.startsWith('[') ? '' : ' '}[[${c.index}]](<${c.url}>)` : '';
      }),
  };
}
