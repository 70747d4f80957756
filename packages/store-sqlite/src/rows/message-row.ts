import type { StoredMessage } from '@permafrost/core';
import { bool, date, dateOrNull, flag, ms, msOrNull } from './codec.js';

export interface MessageRow {
  readonly row_id: number;
  readonly guild_id: string;
  readonly message_id: string;
  readonly channel_id: string;
  readonly author_id: string;
  readonly author_username: string;
  readonly author_display_name: string;
  readonly author_is_bot: number;
  readonly content: string;
  readonly content_truncated: number;
  readonly raw_stored: number;
  readonly created_at: number;
  readonly mention_ids: string;
  readonly reply_to_message_id: string | null;
  readonly thread_parent_id: string | null;
  readonly edited: number;
  readonly metadata: string | null;
  readonly kind: StoredMessage['kind'];
  readonly subject_key: string;
  readonly status: StoredMessage['status'];
  readonly attempts: number;
  readonly next_attempt_at: number | null;
  readonly lease_owner: string | null;
  readonly lease_until: number | null;
  readonly processed_at: number | null;
}

export const MESSAGE_COLUMNS = [
  'guild_id',
  'message_id',
  'channel_id',
  'author_id',
  'author_username',
  'author_display_name',
  'author_is_bot',
  'content',
  'content_truncated',
  'raw_stored',
  'created_at',
  'mention_ids',
  'reply_to_message_id',
  'thread_parent_id',
  'edited',
  'metadata',
  'kind',
  'subject_key',
  'status',
  'attempts',
  'next_attempt_at',
  'lease_owner',
  'lease_until',
  'processed_at',
] as const;

export function messageParams(m: StoredMessage): Omit<MessageRow, 'row_id'> {
  return {
    guild_id: m.guildId,
    message_id: m.messageId,
    channel_id: m.channelId,
    author_id: m.authorId,
    author_username: m.authorUsername,
    author_display_name: m.authorDisplayName,
    author_is_bot: flag(m.authorIsBot),
    content: m.content,
    content_truncated: flag(m.contentTruncated),
    raw_stored: flag(m.rawStored),
    created_at: ms(m.createdAt),
    mention_ids: JSON.stringify(m.mentionIds),
    reply_to_message_id: m.replyToMessageId,
    thread_parent_id: m.threadParentId,
    edited: flag(m.edited),
    metadata: m.metadata === null ? null : JSON.stringify(m.metadata),
    kind: m.kind,
    subject_key: m.subjectKey,
    status: m.status,
    attempts: m.attempts,
    next_attempt_at: msOrNull(m.nextAttemptAt),
    lease_owner: m.leaseOwner,
    lease_until: msOrNull(m.leaseUntil),
    processed_at: msOrNull(m.processedAt),
  };
}

function metadataOf(text: string | null): Readonly<Record<string, string>> | null {
  if (text === null) return null;
  // A null-prototype copy, as core builds it: keys such as __proto__ stay plain data.
  const out: Record<string, string> = Object.create(null);
  for (const [k, v] of Object.entries(JSON.parse(text) as Record<string, string>)) out[k] = v;
  return out;
}

/** The columns of a message read, in the order `messageFromValues` takes them: row_id first. */
const READ_COLUMNS = ['row_id', ...MESSAGE_COLUMNS] as const;

/** The column list of a message read (`alias.` before each name when given). */
export const messageFields = (alias?: string): string =>
  READ_COLUMNS.map((c) => (alias ? `${alias}.${c}` : c)).join(', ');

/** Where a read's columns after the message's (a score) start in its raw values. */
export const AFTER_MESSAGE_FIELDS = READ_COLUMNS.length;

/**
 * The row of a raw read of `messageFields()` (better-sqlite3's raw mode: an array per row). The
 * driver's named-column object costs twice the read itself on these wide rows; a literal does not.
 */
export function rowFromValues(v: readonly unknown[]): MessageRow {
  return {
    row_id: v[0] as number,
    guild_id: v[1] as string,
    message_id: v[2] as string,
    channel_id: v[3] as string,
    author_id: v[4] as string,
    author_username: v[5] as string,
    author_display_name: v[6] as string,
    author_is_bot: v[7] as number,
    content: v[8] as string,
    content_truncated: v[9] as number,
    raw_stored: v[10] as number,
    created_at: v[11] as number,
    mention_ids: v[12] as string,
    reply_to_message_id: v[13] as string | null,
    thread_parent_id: v[14] as string | null,
    edited: v[15] as number,
    metadata: v[16] as string | null,
    kind: v[17] as MessageRow['kind'],
    subject_key: v[18] as string,
    status: v[19] as MessageRow['status'],
    attempts: v[20] as number,
    next_attempt_at: v[21] as number | null,
    lease_owner: v[22] as string | null,
    lease_until: v[23] as number | null,
    processed_at: v[24] as number | null,
  };
}

/** The message of a raw read of `messageFields()`. */
export const messageFromValues = (v: readonly unknown[]): StoredMessage => messageFromRow(rowFromValues(v));

export function messageFromRow(r: MessageRow): StoredMessage {
  return {
    messageId: r.message_id,
    guildId: r.guild_id,
    channelId: r.channel_id,
    authorId: r.author_id,
    authorUsername: r.author_username,
    authorDisplayName: r.author_display_name,
    authorIsBot: bool(r.author_is_bot),
    content: r.content,
    contentTruncated: bool(r.content_truncated),
    rawStored: bool(r.raw_stored),
    createdAt: date(r.created_at),
    mentionIds: JSON.parse(r.mention_ids) as string[],
    replyToMessageId: r.reply_to_message_id,
    threadParentId: r.thread_parent_id,
    edited: bool(r.edited),
    metadata: metadataOf(r.metadata),
    kind: r.kind,
    subjectKey: r.subject_key,
    status: r.status,
    attempts: r.attempts,
    nextAttemptAt: dateOrNull(r.next_attempt_at),
    leaseOwner: r.lease_owner,
    leaseUntil: dateOrNull(r.lease_until),
    processedAt: dateOrNull(r.processed_at),
  };
}

/** Chronological order of the queue and of history: createdAt, then messageId. */
export const CHRONOLOGICAL = 'created_at ASC, message_id ASC';
export const REVERSE_CHRONOLOGICAL = 'created_at DESC, message_id DESC';

/** Message rows by row id (bound as a JSON array): ranked or windowed reads pick row ids first. */
export const MESSAGES_BY_ROW_ID = `SELECT ${messageFields()} FROM messages WHERE row_id IN (SELECT value FROM json_each(?))`;
