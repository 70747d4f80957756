import { createHash } from 'node:crypto';
import type { MemoryConfig } from '../config/schema.js';
import { IgnoreReason, MessageKind, MessageStatus, ObserveStatus } from '../model/enums.js';
import { MAX_CONTENT_CHARS, type MessageEvent, type StoredMessage } from '../model/message.js';
import type { Clock } from '../ports/clock.js';
import { type ObserveReceipt, receipt } from './observe-receipts.js';

/**
 * The content decision of observe: a receipt when the message is dropped (too short, an ignore
 * pattern), else the queue row to store (raw text, or only its hash when raw storage is off).
 */
export function prepareRow(
  event: MessageEvent,
  config: MemoryConfig,
  patterns: readonly RegExp[],
  clock: Clock,
): ObserveReceipt | StoredMessage {
  const trimmed = event.content.trim();
  if (trimmed.length < config.observe.minMessageChars)
    return receipt(event.messageId, ObserveStatus.IGNORED, IgnoreReason.EMPTY_CONTENT);
  if (patterns.some((p) => p.test(event.content)))
    return receipt(event.messageId, ObserveStatus.IGNORED, IgnoreReason.IGNORED_PATTERN);
  const raw = config.privacy.storeRawMessages;
  const truncated = event.content.length > MAX_CONTENT_CHARS;
  return {
    messageId: event.messageId,
    guildId: event.guildId,
    channelId: event.channelId,
    authorId: event.authorId,
    authorUsername: event.authorUsername,
    authorDisplayName: event.authorDisplayName,
    authorIsBot: false,
    content: raw
      ? truncated
        ? event.content.slice(0, MAX_CONTENT_CHARS)
        : event.content
      : createHash('sha256').update(event.content).digest('hex').slice(0, 16),
    contentTruncated: raw && truncated,
    rawStored: raw,
    createdAt: event.createdAt,
    mentionIds: [...new Set(event.mentionIds)].slice(0, 100),
    replyToMessageId: event.replyToMessageId,
    threadParentId: event.threadParentId,
    edited: event.edited,
    metadata: event.metadata ?? null,
    kind: MessageKind.CHAT,
    subjectKey: event.authorId,
    status: raw ? MessageStatus.PENDING : MessageStatus.PROCESSED,
    attempts: 0,
    nextAttemptAt: null,
    leaseOwner: null,
    leaseUntil: null,
    processedAt: raw ? null : clock.now(),
  };
}
