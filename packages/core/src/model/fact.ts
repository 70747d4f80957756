import { z } from 'zod';
import { type SourceChannel, sourceChannelSchema } from './audience.js';
import {
  AttributionType,
  FactCategory,
  FactHistoryKind,
  FactScope,
  MemoryTier,
  SourceRole,
} from './enums.js';

const values = <T extends Record<string, string>>(o: T) => Object.values(o) as [T[keyof T], ...T[keyof T][]];

export const attributionSchema = z
  .object({
    type: z.enum(values(AttributionType)),
    speakerId: z.string().nullable(),
    speakerName: z.string().nullable(),
    actorId: z.string().nullable(),
  })
  .strict();
export type Attribution = Readonly<z.output<typeof attributionSchema>>;

export const sourceRefSchema = z
  .object({
    messageId: z.string().min(1),
    channelId: z.string(),
    authorId: z.string(),
    authorName: z.string(),
    snippet: z.string().max(280),
    url: z.string(),
    role: z.enum(values(SourceRole)),
    createdAt: z.coerce.date().nullable(),
  })
  .strict();
export type SourceRef = Readonly<z.output<typeof sourceRefSchema>>;

export const factSchema = z
  .object({
    id: z.string().min(1),
    guildId: z.string().min(1),
    subjectId: z.string().nullable(),
    text: z.string().min(1),
    normalizedText: z.string(),
    category: z.enum(values(FactCategory)),
    confidence: z.number().min(0).max(1),
    tier: z.enum(values(MemoryTier)),
    scope: z.enum(values(FactScope)),
    attribution: attributionSchema,
    occurrences: z.number().int().min(1),
    strength: z.number().min(0),
    lastReinforcedAt: z.coerce.date(),
    createdAt: z.coerce.date(),
    updatedAt: z.coerce.date(),
    observedAt: z.coerce.date(),
    validFrom: z.coerce.date(),
    validUntil: z.coerce.date().nullable(),
    supersedesId: z.string().nullable(),
    supersededById: z.string().nullable(),
    sources: z.array(sourceRefSchema),
    /**
     * Where the fact was learned: the distinct channels (and thread parents) of every message that
     * ever supported it, kept when a source is removed. [] = channel-free (a manual fact).
     */
    channels: z.array(sourceChannelSchema),
    relatedUserIds: z.array(z.string()),
    entitySlugs: z.array(z.string()),
    expiresAt: z.coerce.date().nullable(),
    version: z.number().int().min(1),
  })
  .strict();

export type Fact = Readonly<
  Omit<
    z.output<typeof factSchema>,
    'attribution' | 'sources' | 'channels' | 'relatedUserIds' | 'entitySlugs'
  > & {
    attribution: Attribution;
    sources: readonly SourceRef[];
    channels: readonly SourceChannel[];
    relatedUserIds: readonly string[];
    entitySlugs: readonly string[];
  }
>;

/** Active = not superseded and not ended. Nothing but purge deletes a fact. */
export function isActive(fact: Pick<Fact, 'supersededById' | 'validUntil'>): boolean {
  return fact.supersededById === null && fact.validUntil === null;
}

/** Valid at `at`: began at or before `at` and had not ended by then (supersession ignored). */
export function isValidAt(fact: Pick<Fact, 'validFrom' | 'validUntil'>, at: Date): boolean {
  return (
    fact.validFrom.getTime() <= at.getTime() &&
    (fact.validUntil === null || fact.validUntil.getTime() > at.getTime())
  );
}

/** The mutable fields of a fact; everything else is fixed at creation. */
export type FactPatch = Partial<
  Pick<
    Fact,
    | 'text'
    | 'normalizedText'
    | 'category'
    | 'confidence'
    | 'tier'
    | 'occurrences'
    | 'strength'
    | 'lastReinforcedAt'
    | 'validUntil'
    | 'supersededById'
    | 'sources'
    | 'channels'
    | 'relatedUserIds'
    | 'entitySlugs'
    | 'expiresAt'
  >
>;

export const factHistoryEntrySchema = z
  .object({
    guildId: z.string(),
    factId: z.string(),
    at: z.coerce.date(),
    kind: z.enum(values(FactHistoryKind)),
    detail: z.string(),
    /** Text of the fact before this change, when the change altered it. */
    previousText: z.string().nullable(),
    actorId: z.string().nullable(),
    version: z.number().int().min(1),
  })
  .strict();
export type FactHistoryEntry = Readonly<z.output<typeof factHistoryEntrySchema>>;

export interface Page<T> {
  readonly items: readonly T[];
  readonly nextCursor: string | null;
}
