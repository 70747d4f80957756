import { RecallWarning } from '@permafrost/core';
import { z } from 'zod';
import { audienceSchema, readOptions } from '../audience.js';
import { scoredFactDto, scoredFactOut, scoredMessageDto, scoredMessageOut, warningsOut } from '../dto.js';
import { McpFailure } from '../errors.js';
import { defineTool, guildField, idField, instantField, memberField } from '../tool.js';

/** A read whose input core rejected answers `query_invalid` instead of throwing: make it an error. */
export function refuseInvalid(tool: string, warnings: readonly string[]): void {
  if (warnings.includes(RecallWarning.QUERY_INVALID))
    throw new McpFailure('SCHEMA_INVALID', `invalid input for ${tool}: core rejected the read`);
}

export const recallTool = defineTool({
  name: 'recall',
  title: 'Recall facts',
  description:
    'Facts Permafrost remembers that answer a question, ranked by the same hybrid recall the bot uses (no LLM call). Each result carries its score components.',
  readOnly: true,
  input: z
    .object({
      guildId: guildField,
      audience: audienceSchema,
      text: z.string().min(1).max(2_000).describe('The question or topic.'),
      topK: z.number().int().min(1).max(50).default(10),
      subjectIds: z.array(idField).max(50).optional().describe('Only facts about these members.'),
      asOf: instantField.optional().describe('Facts as they were at this instant (time travel).'),
    })
    .strict(),
  output: z.object({ facts: z.array(scoredFactOut), warnings: warningsOut }),
  async run(a, memory) {
    const subjects = a.subjectIds && a.subjectIds.length > 0 ? a.subjectIds : null;
    const r = await memory.recall({
      ...readOptions(a.guildId, a.audience),
      text: a.text,
      topK: a.topK,
      ...(subjects ? { scope: 'subjects' as const, subjectIds: subjects } : { scope: 'guild' as const }),
      ...(a.asOf ? { asOf: a.asOf } : {}),
    });
    refuseInvalid('recall', r.warnings);
    return { facts: r.facts.map(scoredFactDto), warnings: [...r.warnings] };
  },
});

export const promptContextTool = defineTool({
  name: 'prompt_context',
  title: 'Memory block for a reply',
  description:
    'The labelled memory block the bot would put in its system prompt before answering a member, with the citations behind each line.',
  readOnly: true,
  input: z
    .object({
      guildId: guildField,
      audience: audienceSchema,
      askerId: memberField.describe('The member being answered.'),
      text: z.string().max(8_000).describe('What the member said.'),
      mentionedIds: z.array(z.string().min(1).max(256)).max(50).optional(),
      tokenBudget: z.number().int().min(16).max(8_000).optional(),
    })
    .strict(),
  output: z.object({
    injectionBlock: z.string(),
    citations: z.array(
      z.object({
        ref: z.string(),
        factId: z.string(),
        subjectId: z.string().nullable(),
        url: z.string().nullable(),
        score: z.number(),
      }),
    ),
    warnings: warningsOut,
  }),
  async run(a, memory) {
    const pc = await memory.promptContext({
      ...readOptions(a.guildId, a.audience),
      askerId: a.askerId,
      text: a.text,
      ...(a.mentionedIds ? { mentionedIds: a.mentionedIds } : {}),
      ...(a.tokenBudget ? { tokenBudget: a.tokenBudget } : {}),
    });
    refuseInvalid('prompt_context', pc.warnings);
    return {
      injectionBlock: pc.injectionBlock,
      citations: pc.citations.map((c) => ({
        ref: c.ref,
        factId: c.factId,
        subjectId: c.subjectId,
        url: c.url,
        score: c.score,
      })),
      warnings: [...pc.warnings],
    };
  },
});

export const searchConversationTool = defineTool({
  name: 'search_conversation',
  title: 'Search past messages',
  description:
    'Hybrid keyword and vector search over the stored messages of the guild ("when did we talk about…").',
  readOnly: true,
  input: z
    .object({
      guildId: guildField,
      audience: audienceSchema,
      text: z.string().min(1).max(2_000),
      limit: z.number().int().min(1).max(50).default(10),
      channelId: idField.optional().describe('Only messages of this channel.'),
    })
    .strict(),
  output: z.object({ messages: z.array(scoredMessageOut), warnings: warningsOut }),
  async run(a, memory) {
    const r = await memory.conversation.search({
      ...readOptions(a.guildId, a.audience),
      text: a.text,
      limit: a.limit,
      ...(a.channelId ? { channelId: a.channelId } : {}),
    });
    refuseInvalid('search_conversation', r.warnings);
    return { messages: r.messages.map(scoredMessageDto), warnings: [...r.warnings] };
  },
});
