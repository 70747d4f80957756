import { z } from 'zod';
import { EntityKind, FactCategory } from '../model/enums.js';

const values = <T extends Record<string, string>>(o: T) => Object.values(o) as [T[keyof T], ...T[keyof T][]];

/** Token of the community as a whole in rosters and outputs. */
export const SERVER_TOKEN = 'server';

/**
 * What an extractor sees for one batch. People appear only as roster tokens (`p0`, `p1`, …) and
 * display names — never as platform ids.
 */
export interface ExtractionInput {
  /** `member`: facts about participants (and the server); `community`: server facts only. */
  readonly scope: 'member' | 'community';
  /** Date of the batch (ISO `YYYY-MM-DD` plus weekday), so relative dates can be resolved. */
  readonly batchDate: string;
  readonly batchWeekday: string;
  readonly roster: readonly RosterEntry[];
  readonly messages: readonly ExtractionMessage[];
  /** Known facts that may be relevant (subject as a token), for reinforcement and context. */
  readonly existingFacts: readonly ExistingFactLine[];
}

export interface RosterEntry {
  readonly token: string;
  readonly name: string;
  /** `author`: p0 of a member batch; `participant`: another author; `mentioned`: only mentioned. */
  readonly role: 'author' | 'participant' | 'mentioned';
}

export interface ExtractionMessage {
  /** 1-based, as shown to the model: `[msg:1]`. */
  readonly index: number;
  readonly authorToken: string;
  readonly authorName: string;
  /** Message text with mentions rewritten as `@name` (never `<@id>`). */
  readonly content: string;
  /** Tokens of members this message mentions or replies to. */
  readonly mentionTokens: readonly string[];
  readonly replyToIndex: number | null;
}

export interface ExistingFactLine {
  readonly ref: string;
  readonly subjectToken: string;
  readonly text: string;
}

export const proposedEntitySchema = z
  .object({
    name: z.string().min(1).max(64),
    kind: z.enum(values(EntityKind)),
  })
  .strict();

export const proposedRelationSchema = z
  .object({
    verb: z.string().min(2).max(48),
    /** A roster token (or `server`) for a person end, or null when the end is an entity. */
    fromToken: z.string().max(16).nullable(),
    toToken: z.string().max(16).nullable(),
    fromEntity: z.string().max(64).nullable(),
    toEntity: z.string().max(64).nullable(),
  })
  .strict();

export const proposedFactSchema = z
  .object({
    /** Who the fact is about: a roster token or `server`. */
    subjectToken: z.string().min(1).max(16),
    /** Who stated it, when that is not the subject (third-party claims); else null. */
    speakerToken: z.string().max(16).nullable(),
    /** Third person, display names (never tokens or ids), one durable fact. */
    text: z.string().min(1).max(2000),
    category: z.enum(values(FactCategory)),
    confidence: z.number().min(0).max(1),
    sourceMessageIndexes: z.array(z.number().int()).max(50),
    entities: z.array(proposedEntitySchema).max(12),
    relations: z.array(proposedRelationSchema).max(12),
  })
  .strict();

export const extractionOutputSchema = z.object({ operations: z.array(proposedFactSchema).max(100) }).strict();

export type ProposedEntity = z.output<typeof proposedEntitySchema>;
export type ProposedRelation = z.output<typeof proposedRelationSchema>;
export type ProposedFact = z.output<typeof proposedFactSchema>;
export type ExtractionOutput = z.output<typeof extractionOutputSchema>;
