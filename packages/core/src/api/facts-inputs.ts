import { z } from 'zod';
import { sourceChannelSchema } from '../model/audience.js';
import { EntityKind, FactCategory } from '../model/enums.js';
import { timestampSchema } from '../model/message.js';
import { countField, idField as id, userIdField } from '../validation/index.js';

const values = <T extends Record<string, string>>(o: T) => Object.values(o) as [T[keyof T], ...T[keyof T][]];

/** Fact ids are library-minted (`fct_` + ULID); any bounded id is accepted and looked up. */
const factRef = { guildId: id, factId: id };
const reason = z.string().min(1).max(500);

export const factRefSchema = z.object(factRef).strict();

export const getAllSchema = z
  .object({
    guildId: id,
    subjectId: userIdField.nullable(),
    includeServer: z.boolean().optional(),
    limit: countField(1000).optional(),
    random: z.boolean().optional(),
  })
  .strict();

export const updateSchema = z
  .object({
    ...factRef,
    text: z.string().max(4_000),
    reason: reason.optional(),
    actorId: userIdField.optional(),
  })
  .strict();

export const forgetSchema = z
  .object({ ...factRef, reason: reason.optional(), actorId: userIdField.optional() })
  .strict();

export const rememberSchema = z
  .object({
    guildId: id,
    /** null = a server (community) fact. */
    subjectId: userIdField.nullable(),
    text: z.string().max(4_000),
    category: z.enum(values(FactCategory)).default('general'),
    confidence: z.number().min(0).max(1).default(1),
    actorId: userIdField.nullish().transform((v) => v ?? null),
    speakerId: userIdField.nullish().transform((v) => v ?? null),
    entities: z
      .array(
        z
          .object({ name: z.string().min(1).max(64), kind: z.enum(values(EntityKind)).default('concept') })
          .strict(),
      )
      .max(12)
      .default([]),
    relations: z
      .array(
        z
          .object({
            verb: z.string().min(2).max(48),
            toUserId: userIdField.optional(),
            toEntity: z.string().min(1).max(64).optional(),
          })
          .strict(),
      )
      .max(12)
      .default([]),
    /** Registers this name as a strong alias of the subject. */
    subjectUsername: z.string().max(64).optional(),
    /**
     * Makes the call idempotent (stored, so across restarts): the same key with the same input
     * returns the fact the first call produced; with a different input it is refused.
     */
    idempotencyKey: z.string().min(1).max(128).optional(),
    /**
     * When the fact was learned (e.g. the date of the conversation it comes from); default now.
     * Time expressions in queries ("last May") match it. Not after now.
     */
    observedAt: timestampSchema.optional(),
    /**
     * Where the fact was learned, when it came from a conversation (e.g. `/memory remember` in a
     * channel): it is then shown only to audiences the policy lets see that channel. Without it the
     * fact is channel-free (shown everywhere in the guild unless `access.channelFreeVisible` is off).
     * Facts remembered in one channel with `observedAt` within `retrieval.neighborMaxGapMinutes`
     * of each other count as one conversation in recall (`retrieval.factContextWeight`).
     */
    channel: sourceChannelSchema.optional(),
  })
  .strict();
export type RememberInput = z.input<typeof rememberSchema>;
