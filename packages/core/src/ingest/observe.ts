import { createHash } from 'node:crypto';
import type { MemoryConfig } from '../config/schema.js';
import { ErrorCode, MemoryError } from '../errors/index.js';
import { normalizeAlias } from '../identity/aliases.js';
import {
  AliasSource,
  IgnoreReason,
  MessageKind,
  MessageStatus,
  ObserveStatus,
  RejectReason,
} from '../model/enums.js';
import {
  MAX_CONTENT_CHARS,
  type MessageEvent,
  type MessageEventInput,
  messageEventSchema,
  type StoredMessage,
} from '../model/message.js';
import type { Clock } from '../ports/clock.js';
import type { Logger } from '../ports/logger.js';
import type { MemoryStore } from '../ports/memory-store.js';
import { parseInput } from '../validation/index.js';
import type { MemberRate } from './member-rate.js';

export interface ObserveReceipt {
  readonly messageId: string;
  readonly status: ObserveStatus;
  readonly reason: IgnoreReason | RejectReason | null;
  /**
   * With `storage_unavailable`: why, as `CODE: message` (error code and the library's message, which
   * names paths and OS errors but never content), e.g. a database file that cannot be opened.
   */
  readonly detail?: string;
}

/** `CODE: message` of a storage failure for receipts and health reports (never content). */
export function storageFailureDetail(error: unknown): string {
  return MemoryError.is(error) ? `${error.code}: ${error.message}` : 'INTERNAL: unexpected storage failure';
}

/** The receipt of a message that could not be stored because of `error`. */
export function rejectedReceipt(messageId: string, error: unknown): ObserveReceipt {
  return MemoryError.is(error, ErrorCode.CLOSED)
    ? { messageId, status: ObserveStatus.REJECTED, reason: RejectReason.CLOSED }
    : {
        messageId,
        status: ObserveStatus.REJECTED,
        reason: RejectReason.STORAGE_UNAVAILABLE,
        detail: storageFailureDetail(error),
      };
}

export interface ObserveDeps {
  readonly config: MemoryConfig;
  readonly clock: Clock;
  readonly isBot: (userId: string) => boolean;
  readonly logger?: Logger;
  /** Called for every stored message (hot conversation cache, metrics). */
  readonly onStored?: (message: StoredMessage) => void;
  /**
   * An edit of a stored message: re-stores it for extraction and retires what only the old text
   * supported. False when nothing changed. Without it, the stored content is just replaced.
   */
  readonly reviseMessage?: (row: StoredMessage) => Promise<boolean>;
  /** An edit that left nothing to keep (now empty or ignored): the stored message is forgotten. */
  readonly forgetEdited?: (event: MessageEvent) => Promise<void>;
  /** Per-member admission (token bucket); absent: no per-member limit. */
  readonly rate?: MemberRate;
  /** Binds a name to a member (identity service: weights, validity, entity twins). */
  readonly registerAlias: (input: {
    guildId: string;
    userId: string;
    alias: string;
    source: AliasSource;
  }) => Promise<unknown>;
}

/** Validates a message event; the only error observe raises (SCHEMA_INVALID). */
export function parseMessageEvent(input: unknown): MessageEvent {
  return parseInput(messageEventSchema, input, 'observe');
}

const receipt = (
  messageId: string,
  status: ObserveStatus,
  reason: IgnoreReason | RejectReason | null = null,
): ObserveReceipt => ({ messageId, status, reason });

/**
 * The observe path: O(1), no model, no embedding. Decides ignore/reject from in-process state and
 * one consent read, stores the message as a queue row, and registers the author's display name.
 */
export class Observer {
  readonly #deps: ObserveDeps;
  readonly #patterns: readonly RegExp[];
  /** Last alias registered per (guild, user), so unchanged names cost no write. */
  readonly #knownNames = new Map<string, string>();

  constructor(deps: ObserveDeps) {
    this.#deps = deps;
    this.#patterns = deps.config.observe.ignorePatterns.map((p) => new RegExp(p, 'iu'));
  }

  /** Content decision after consent: a receipt when the message is dropped, else the row to store. */
  prepare(event: MessageEvent): ObserveReceipt | StoredMessage {
    const { config } = this.#deps;
    const trimmed = event.content.trim();
    if (trimmed.length < config.observe.minMessageChars)
      return receipt(event.messageId, ObserveStatus.IGNORED, IgnoreReason.EMPTY_CONTENT);
    if (this.#patterns.some((p) => p.test(event.content)))
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
      processedAt: raw ? null : this.#deps.clock.now(),
    };
  }

  async observe(store: MemoryStore, input: MessageEventInput): Promise<ObserveReceipt> {
    const event = parseMessageEvent(input);
    if (event.authorIsBot || this.#deps.isBot(event.authorId))
      return receipt(event.messageId, ObserveStatus.IGNORED, IgnoreReason.BOT_AUTHOR);
    try {
      if (await store.consent.isOptedOut(event.guildId, event.authorId))
        return receipt(event.messageId, ObserveStatus.IGNORED, IgnoreReason.OPTED_OUT);
    } catch (error) {
      return this.#rejected(event, error);
    }
    const prepared = this.prepare(event);
    if (!('kind' in prepared)) {
      // The old text must not outlive an edit that made the message one we would not store.
      if (event.edited && this.#deps.forgetEdited)
        await this.#deps
          .forgetEdited(event)
          .catch((error: unknown) =>
            this.#deps.logger?.({ level: 'warn', event: 'observe.forget_edited_failed', error }),
          );
      return prepared;
    }
    const row = prepared;
    // One member's flood spends that member's share only: it never takes another member's room.
    if (
      !event.edited &&
      this.#deps.rate &&
      !this.#deps.rate.take(row.guildId, row.authorId, this.#deps.clock.now())
    )
      return receipt(row.messageId, ObserveStatus.REJECTED, RejectReason.MEMBER_OVER_RATE);
    try {
      const outcome = await store.queue.enqueue(row, this.#deps.config.observe.maxQueueDepthPerGuild);
      if (outcome === 'duplicate') {
        // The row may come from a process that died before registering the author's name (a
        // redelivery after a crash): register it now, once per process (cached), best effort.
        await this.#registerName(event).catch((error: unknown) =>
          this.#deps.logger?.({ level: 'warn', event: 'observe.alias_failed', error }),
        );
        // An edit of a message already stored updates its content (pending rows are extracted with it).
        if (!event.edited) return receipt(row.messageId, ObserveStatus.IGNORED, IgnoreReason.DUPLICATE);
        const updated = this.#deps.reviseMessage
          ? await this.#deps.reviseMessage(row)
          : await store.queue.markEdited(row.guildId, row.messageId, row.content, row.contentTruncated);
        if (!updated) return receipt(row.messageId, ObserveStatus.IGNORED, IgnoreReason.DUPLICATE);
        this.#deps.onStored?.(row);
        return receipt(row.messageId, ObserveStatus.ACCEPTED);
      }
      if (outcome === 'over_capacity')
        return receipt(row.messageId, ObserveStatus.REJECTED, RejectReason.QUEUE_OVER_CAPACITY);
      await this.#registerName(event);
      this.#deps.onStored?.(row);
      return receipt(row.messageId, ObserveStatus.ACCEPTED);
    } catch (error) {
      return this.#rejected(event, error);
    }
  }

  #rejected(event: MessageEvent, error: unknown): ObserveReceipt {
    this.#deps.logger?.({
      level: 'warn',
      event: 'observe.store_failed',
      data: { guildId: event.guildId, code: MemoryError.is(error) ? error.code : 'INTERNAL' },
      error,
    });
    return rejectedReceipt(event.messageId, error);
  }

  async #registerName(event: MessageEvent): Promise<void> {
    const name = event.authorDisplayName.trim() || event.authorUsername.trim();
    const cacheKey = `${event.guildId}\u0000${event.authorId}`;
    if (name.length === 0 || this.#knownNames.get(cacheKey) === name) return;
    const base = { guildId: event.guildId, userId: event.authorId };
    await this.#deps.registerAlias({ ...base, alias: name, source: AliasSource.DISPLAY_NAME });
    const username = event.authorUsername.trim();
    if (username.length > 0 && normalizeAlias(username) !== normalizeAlias(name)) {
      await this.#deps.registerAlias({ ...base, alias: username, source: AliasSource.DISCORD_USERNAME });
    }
    if (this.#knownNames.size > 50_000) this.#knownNames.clear();
    this.#knownNames.set(cacheKey, name);
  }

  /** Forget cached names of a user (after purge or rename handling elsewhere). */
  forgetUser(guildId: string, userId: string): void {
    this.#knownNames.delete(`${guildId}\u0000${userId}`);
  }
}
