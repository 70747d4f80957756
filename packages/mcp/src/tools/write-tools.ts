import { FactCategory } from '@permafrost/core';
import { z } from 'zod';
import { factDto, factOut } from '../dto.js';
import { defineTool, guildField, idField, memberField } from '../tool.js';

const categories = Object.values(FactCategory) as [FactCategory, ...FactCategory[]];

export const rememberTool = defineTool({
  name: 'remember',
  title: 'Remember a fact',
  description:
    'Stores a manual fact about a member (or the server with subjectId null). Refused for members who opted out (SUBJECT_NOT_ALLOWED) and for text the quality gates reject, such as instructions to the assistant (SCHEMA_INVALID). An idempotencyKey makes retries store it once.',
  readOnly: false,
  input: z
    .object({
      guildId: guildField,
      subjectId: memberField.nullable().describe('The member the fact is about; null for a server fact.'),
      text: z.string().min(1).max(4_000),
      category: z.enum(categories).optional(),
      idempotencyKey: z.string().min(1).max(128).optional(),
      actorId: memberField.optional().describe('Who asked for the fact to be stored (audit trail).'),
    })
    .strict(),
  output: z.object({ fact: factOut }),
  async run(a, memory) {
    const fact = await memory.facts.remember({
      guildId: a.guildId,
      subjectId: a.subjectId,
      text: a.text,
      ...(a.category ? { category: a.category } : {}),
      ...(a.idempotencyKey ? { idempotencyKey: a.idempotencyKey } : {}),
      ...(a.actorId ? { actorId: a.actorId } : {}),
    });
    return { fact: factDto(fact) };
  },
});

export const forgetTool = defineTool({
  name: 'forget',
  title: 'Forget a fact',
  description:
    'Retires a fact by id (it stops being recalled; its history keeps the reason). Use purge in the CLI to delete a member for good.',
  readOnly: false,
  destructive: true,
  input: z
    .object({
      guildId: guildField,
      factId: idField,
      reason: z.string().min(1).max(500).describe('Why the fact is forgotten (kept in its history).'),
      actorId: memberField.optional(),
    })
    .strict(),
  output: z.object({ fact: factOut }),
  async run(a, memory) {
    const fact = await memory.facts.forget({
      guildId: a.guildId,
      factId: a.factId,
      reason: a.reason,
      ...(a.actorId ? { actorId: a.actorId } : {}),
    });
    return { fact: factDto(fact) };
  },
});
