import type { StoredMessage } from '@permafrost/core';
import { indexTerms } from '@permafrost/core/store';
import type { Document } from 'mongodb';
import type { MessageDoc } from './mongo-conversation-docs.js';
import { docKey, finite, nullableDate, requireId, requireString, validDate } from './mongo-keys.js';

export const messageKey = (guildId: string, messageId: string): string => docKey(guildId, messageId);

/** Keyword terms of a row: only raw chat/reply content is searchable (never hashes or session rows). */
export function messageTerms(m: Pick<StoredMessage, 'rawStored' | 'kind' | 'content'>): string[] {
  return m.rawStored && m.kind !== 'session' ? indexTerms(m.content) : [];
}

export function toMessageDoc(m: StoredMessage): MessageDoc {
  const guildId = requireId(m.guildId, 'guildId');
  const messageId = requireId(m.messageId, 'messageId');
  const terms = messageTerms(m);
  let metadata: { k: string; v: string }[] | null = null;
  if (m.metadata !== null && m.metadata !== undefined) {
    metadata = Object.entries(m.metadata).map(([k, v]) => ({ k, v: requireString(v, 'metadata value') }));
  }
  return {
    _id: messageKey(guildId, messageId),
    ep: '',
    messageId,
    guildId,
    channelId: requireId(m.channelId, 'channelId'),
    authorId: requireId(m.authorId, 'authorId'),
    authorUsername: requireString(m.authorUsername, 'authorUsername'),
    authorDisplayName: requireString(m.authorDisplayName, 'authorDisplayName'),
    authorIsBot: m.authorIsBot === true,
    content: requireString(m.content, 'content'),
    contentTruncated: m.contentTruncated === true,
    rawStored: m.rawStored === true,
    createdAt: validDate(m.createdAt, 'createdAt'),
    mentionIds: m.mentionIds.map((id) => requireString(id, 'mentionIds')),
    replyToMessageId:
      m.replyToMessageId === null ? null : requireString(m.replyToMessageId, 'replyToMessageId'),
    threadParentId: m.threadParentId === null ? null : requireString(m.threadParentId, 'threadParentId'),
    edited: m.edited === true,
    metadata,
    kind: requireString(m.kind, 'kind'),
    subjectKey: requireId(m.subjectKey, 'subjectKey'),
    status: requireString(m.status, 'status'),
    attempts: finite(m.attempts, 'attempts'),
    nextAttemptAt: nullableDate(m.nextAttemptAt, 'nextAttemptAt'),
    leaseOwner: m.leaseOwner === null ? null : requireString(m.leaseOwner, 'leaseOwner'),
    leaseUntil: nullableDate(m.leaseUntil, 'leaseUntil'),
    processedAt: nullableDate(m.processedAt, 'processedAt'),
    terms,
    termCount: terms.length,
  };
}

export function fromMessageDoc(d: MessageDoc): StoredMessage {
  let metadata: Record<string, string> | null = null;
  if (d.metadata) {
    metadata = Object.create(null) as Record<string, string>;
    for (const { k, v } of d.metadata)
      Object.defineProperty(metadata, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return {
    messageId: d.messageId,
    guildId: d.guildId,
    channelId: d.channelId,
    authorId: d.authorId,
    authorUsername: d.authorUsername,
    authorDisplayName: d.authorDisplayName,
    authorIsBot: d.authorIsBot,
    content: d.content,
    contentTruncated: d.contentTruncated,
    rawStored: d.rawStored,
    createdAt: d.createdAt,
    mentionIds: [...d.mentionIds],
    replyToMessageId: d.replyToMessageId ?? null,
    threadParentId: d.threadParentId ?? null,
    edited: d.edited,
    metadata,
    kind: d.kind as StoredMessage['kind'],
    subjectKey: d.subjectKey,
    status: d.status as StoredMessage['status'],
    attempts: d.attempts,
    nextAttemptAt: d.nextAttemptAt ?? null,
    leaseOwner: d.leaseOwner ?? null,
    leaseUntil: d.leaseUntil ?? null,
    processedAt: d.processedAt ?? null,
  };
}

/** Rows strictly before (`$lt`) or after (`$gt`) a position in (createdAt, messageId) order. */
export function beyond(
  op: '$lt' | '$gt',
  at: { readonly createdAt: Date; readonly messageId: string },
): Document {
  return {
    $or: [
      { createdAt: { [op]: at.createdAt } },
      { createdAt: at.createdAt, messageId: { [op]: at.messageId } },
    ],
  };
}

/** Chronological order of rows: createdAt, then messageId. */
export const CHRONOLOGICAL = { createdAt: 1, messageId: 1 } as const;
export const REVERSE_CHRONOLOGICAL = { createdAt: -1, messageId: -1 } as const;
