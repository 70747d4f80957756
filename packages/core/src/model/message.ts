import { z } from 'zod';
import type { MessageKind, MessageStatus } from './enums.js';

/** Longest content stored as-is; longer content is stored truncated with `contentTruncated`. */
export const MAX_CONTENT_CHARS = 8_000;

const nonEmptyId = z.string().min(1).max(128);

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

const metadataSchema = z
  .record(z.string().min(1).max(64), z.string().max(256))
  .refine((m) => Object.keys(m).length <= 16, { message: 'metadata has more than 16 keys' })
  .transform((m) => {
    // Copy onto a null-prototype object so keys like __proto__ are plain data.
    const out: Record<string, string> = Object.create(null);
    for (const [k, v] of Object.entries(m)) out[k] = v;
    return out;
  });

export const messageEventSchema = z
  .object({
    messageId: nonEmptyId,
    guildId: nonEmptyId,
    channelId: nonEmptyId,
    authorId: nonEmptyId,
    content: z.string(),
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

/** The community batch key of a guild. */
export const SERVER_KEY = '__server__';

export interface BatchKey {
  readonly guildId: string;
  readonly subjectKey: string;
}
