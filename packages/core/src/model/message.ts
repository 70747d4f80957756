import { z } from 'zod';
import { idField, userIdField } from '../validation/fields.js';
import type { MessageKind, MessageStatus } from './enums.js';

/** Longest content stored as-is; longer content is stored truncated with `contentTruncated`. */
export const MAX_CONTENT_CHARS = 8_000;
/** Longest content observe takes at all (it is then stored truncated); longer is SCHEMA_INVALID. */
export const MAX_OBSERVED_CHARS = 2_000_000;

const nonEmptyId = idField;

/** An ISO timestamp must carry an offset (`Z` or `+hh:mm`); naive timestamps are ambiguous. */
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

export const timestampSchema = z.union([
  z.date().refine((d) => !Number.isNaN(d.getTime()), { message: 'invalid date' }),
  z
    .string()
    .regex(ISO_WITH_OFFSET, { message: 'timestamp must be ISO 8601 with an offset' })
    .transform((s) => new Date(s))
    .refine((d) => !Number.isNaN(d.getTime()), { message: 'invalid date' }),
]);

const MAX_METADATA_KEYS = 16;

/**
 * String metadata, at most 16 keys of ≤ 64 chars with values of ≤ 256 chars. Validated by hand
 * onto a null-prototype object: a record schema builds its output with plain assignment, which
 * silently drops a `__proto__` key; here every own key, `__proto__` included, is kept as data.
 */
const metadataSchema = z
  .custom<Readonly<Record<string, string>>>(
    (v) => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date),
    { message: 'metadata must be an object of strings' },
  )
  .transform((m, ctx) => {
    const out: Record<string, string> = Object.create(null);
    const entries = Object.entries(m);
    if (entries.length > MAX_METADATA_KEYS)
      ctx.addIssue({ code: 'custom', message: `metadata has more than ${MAX_METADATA_KEYS} keys` });
    for (const [k, v] of entries) {
      if (k.length < 1 || k.length > 64)
        ctx.addIssue({ code: 'custom', path: [k], message: 'metadata keys are 1 to 64 characters' });
      else if (typeof v !== 'string' || v.length > 256)
        ctx.addIssue({
          code: 'custom',
          path: [k],
          message: 'metadata values are strings of at most 256 characters',
        });
      else out[k] = v;
    }
    return out;
  });

export const messageEventSchema = z
  .object({
    messageId: nonEmptyId,
    guildId: nonEmptyId,
    channelId: nonEmptyId,
    authorId: userIdField,
    content: z.string().max(MAX_OBSERVED_CHARS),
    createdAt: timestampSchema,
    authorUsername: z.string().max(256).default(''),
    authorDisplayName: z.string().max(256).default(''),
    authorIsBot: z.boolean().default(false),
    mentionIds: z.array(nonEmptyId).max(10_000).default([]),
    replyToMessageId: nonEmptyId.nullish().transform((v) => v ?? null),
    threadParentId: nonEmptyId.nullish().transform((v) => v ?? null),
    edited: z.boolean().default(false),
    metadata: metadataSchema.optional(),
  })
  .strict();

/** What a bot hands to `observe`. */
export type MessageEventInput = z.input<typeof messageEventSchema>;
export type MessageEvent = z.output<typeof messageEventSchema>;

/** A row of the message table: queue state and conversation history in one place. */
export interface StoredMessage {
  readonly messageId: string;
  readonly guildId: string;
  readonly channelId: string;
  readonly authorId: string;
  readonly authorUsername: string;
  readonly authorDisplayName: string;
  readonly authorIsBot: boolean;
  /** Raw content, or a short hash when raw storage is disabled. */
  readonly content: string;
  readonly contentTruncated: boolean;
  /** False when `privacy.storeRawMessages` is off: `content` is a hash and is never extracted. */
  readonly rawStored: boolean;
  readonly createdAt: Date;
  readonly mentionIds: readonly string[];
  readonly replyToMessageId: string | null;
  readonly threadParentId: string | null;
  readonly edited: boolean;
  readonly metadata: Readonly<Record<string, string>> | null;
  readonly kind: MessageKind;
  /** Batch key of the message: the author id for chat. */
  readonly subjectKey: string;
  readonly status: MessageStatus;
  readonly attempts: number;
  readonly nextAttemptAt: Date | null;
  readonly leaseOwner: string | null;
  readonly leaseUntil: Date | null;
  readonly processedAt: Date | null;
}

export { SERVER_KEY } from './reserved-ids.js';

export interface BatchKey {
  readonly guildId: string;
  readonly subjectKey: string;
}
