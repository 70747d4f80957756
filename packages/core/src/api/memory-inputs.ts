import { z } from 'zod';
import { ContextMode } from '../conversation/context-service.js';
import { countField, idField as id, MAX_IDS, MAX_TEXT_CHARS, userIdField } from '../validation/index.js';

/** Input schemas of the methods on Memory itself (groups validate in their own modules). */

/** Most events one observeMany call takes (each is validated before any is stored). */
export const MAX_OBSERVE_MANY = 10_000;

const values = <T extends Record<string, string>>(o: T) => Object.values(o) as [T[keyof T], ...T[keyof T][]];

export const observeManySchema = z.array(z.unknown()).max(MAX_OBSERVE_MANY);

/** `observeMany`'s options: `history` marks past messages imported in bulk. */
export const observeManyOptionsSchema = z.object({ history: z.boolean().optional() }).strict();

export const flushSchema = z.object({ guildId: id.optional(), report: z.boolean().optional() }).strict();

export const statsSchema = z.object({ guildId: id }).strict();

export const regenerateSchema = z
  .object({ guildId: id, userIds: z.array(userIdField).max(MAX_IDS).optional() })
  .strict();

export const classifyCommandSchema = z.string().max(MAX_TEXT_CHARS);

export const contextSchema = z
  .object({
    guildId: id,
    channelId: id,
    askerId: userIdField,
    text: z.string().max(MAX_TEXT_CHARS),
    mode: z.enum(values(ContextMode)).optional(),
    mentionedIds: z.array(id).max(MAX_IDS).optional(),
  })
  .strict();

/** `ctx` is a PromptContext (or anything with its citations): only the citations are read. */
const citationSchema = z.object({
  ref: z.string().max(64),
  index: z.number().int().min(0),
  url: z.string().max(2_048).nullable(),
  snippet: z.string().max(MAX_TEXT_CHARS),
});
export const citeSchema = z.tuple([
  z.string().max(MAX_TEXT_CHARS),
  z.object({ citations: z.array(citationSchema).max(1_000) }),
]);

export const registerBotIdSchema = userIdField;

export const closeSchema = z
  .object({ drain: z.boolean().optional(), timeoutMs: countField(3_600_000).optional() })
  .strict();

export const EVENT_TYPES = [
  'BatchCompleted',
  'FactCommitted',
  'FactSuperseded',
  'ExtractionFailed',
  'BudgetWarning',
  'ComponentDegraded',
] as const;
export const eventsOnSchema = z.tuple([
  z.enum(EVENT_TYPES),
  z.custom<(payload: never) => void>((v) => typeof v === 'function', {
    message: 'handler must be a function',
  }),
]);
