import { z } from 'zod';
import { audienceSchema } from '../model/audience.js';
import { ChannelName, Scope } from '../model/enums.js';
import { timestampSchema } from '../model/message.js';
import { idField as id } from '../validation/index.js';

const values = <T extends Record<string, string>>(o: T) => Object.values(o) as [T[keyof T], ...T[keyof T][]];

/** Longest query text used; longer text is cut (recall never rejects a long question). */
export const MAX_QUERY_CHARS = 2_000;

export const recallQuerySchema = z
  .object({
    guildId: id,
    /** Free text; without it only the structural channels (links, baseline, pairs, graph) run. */
    text: z
      .string()
      .max(100_000)
      .nullish()
      .transform((t) => (t == null || t.trim() === '' ? null : t.slice(0, MAX_QUERY_CHARS))),
    subjectIds: z.array(id).max(200).default([]),
    /** Pairs of subjects whose shared facts are wanted (discovery). */
    pairIds: z
      .array(z.tuple([id, id]))
      .max(200)
      .default([]),
    /** An entity name or slug the caller knows the question is about. */
    entityHint: z
      .string()
      .min(1)
      .max(200)
      .nullish()
      .transform((v) => v ?? null),
    /** Default: `subjects` when subjectIds are given, else `guild`. */
    scope: z.enum(values(Scope)).optional(),
    /** Subject scope only: also admit server facts (off by default, never implicit). */
    includeServer: z.boolean().default(false),
    excludeIds: z.array(z.string().min(1)).max(10_000).default([]),
    topK: z.number().int().min(1).max(200).optional(),
    maxPerSubject: z.number().int().min(1).max(200).optional(),
    minScore: z.number().min(0).max(1).optional(),
    /** Restrict to these channels (default: every channel that applies). */
    channels: z
      .array(z.enum(values(ChannelName)))
      .max(16)
      .optional(),
    /** Time travel: facts valid at this instant instead of currently active ones. */
    asOf: timestampSchema.nullish().transform((v) => v ?? null),
    /** Set false to skip a configured reranker for this query. */
    rerank: z.boolean().default(true),
    /**
     * Who the answer is for: only facts the audience policy lets this channel see. Without it,
     * `access.requireAudience` (default on) leaves only channel-free facts.
     */
    audience: audienceSchema.nullish().transform((v) => v ?? null),
  })
  .strict();

export type RecallQueryInput = z.input<typeof recallQuerySchema>;
export type RecallQuery = z.output<typeof recallQuerySchema>;
