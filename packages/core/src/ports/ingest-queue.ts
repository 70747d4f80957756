import type { BatchKey, StoredMessage } from '../model/message.js';

/** `withheld`: the caller's `admitted` resolved false, so nothing was stored (see `EnqueueOptions`). */
export type EnqueueOutcome = 'accepted' | 'duplicate' | 'over_capacity' | 'withheld';

export interface EnqueueOptions {
  /**
   * Whether the message may be stored at all (core's consent read, started together with the
   * enqueue so that a remote store need not wait for it before it begins). A store may write
   * bookkeeping that holds no content of the message before it resolves (and must remove it when it
   * resolves false); it stores the row only once it resolved true. False → `withheld`, nothing
   * stored; a rejection → the enqueue rejects with it, nothing stored.
   */
  readonly admitted?: Promise<boolean>;
}

export interface CompleteOptions {
  /**
   * The batch's own writes, still in flight: core starts the completion beside them so that a
   * remote store can prepare meanwhile (read or lock what it will change). Nothing may be marked
   * processed before it resolves; when it rejects, `complete` rejects with its error and nothing
   * is marked.
   */
  readonly after?: Promise<unknown>;
}

export interface DueKeysQuery {
  readonly now: Date;
  /** A key is due with at least this many eligible pending messages… */
  readonly batchSize: number;
  /** …or when its oldest eligible pending message was created at or before this instant. */
  readonly olderThan: Date;
  readonly limit: number;
  readonly guildId?: string;
}

export interface ClaimRequest {
  readonly key: BatchKey;
  readonly owner: string;
  readonly now: Date;
  readonly leaseMs: number;
  readonly limit: number;
}

export interface ClaimResult {
  /** Claimed messages, oldest first (empty when nothing was eligible or the key is locked). */
  readonly messages: readonly StoredMessage[];
  readonly lockedByOther: boolean;
}

export interface FailRequest {
  readonly owner: string;
  readonly now: Date;
  readonly maxAttempts: number;
  readonly baseBackoffMs: number;
}

export interface FailResult {
  /** Messages returned to pending with nextAttemptAt = now + baseBackoffMs × 2^(attempts − 1). */
  readonly retrying: number;
  /** Messages that reached maxAttempts and are now dead letters. */
  readonly dead: number;
  /** Highest attempt count among the messages after this failure. */
  readonly attempts: number;
}

export interface QueueCounts {
  readonly pending: number;
  readonly claimed: number;
  readonly processed: number;
  readonly dead: number;
}

/**
 * The message table seen as a work queue. Only chat messages with raw content are eligible for
 * batching; replies and session rows are stored as processed.
 */
export interface IngestQueue {
  /**
   * Stores a message. Duplicate (guildId, messageId) → `duplicate` (nothing changes). When the guild
   * already has `maxDepth` pending messages → `over_capacity` (nothing stored). With
   * `options.admitted`, see `EnqueueOptions`.
   */
  enqueue(message: StoredMessage, maxDepth: number, options?: EnqueueOptions): Promise<EnqueueOutcome>;
  enqueueMany(messages: readonly StoredMessage[], maxDepth: number): Promise<EnqueueOutcome[]>;
  /** Updates content of a stored message after an edit (pending rows are re-extracted with it). */
  markEdited(guildId: string, messageId: string, content: string, truncated: boolean): Promise<boolean>;
  /** Keys with pending messages whose nextAttemptAt ≤ now, oldest first, due by size or age. */
  dueKeys(query: DueKeysQuery): Promise<BatchKey[]>;
  /**
   * Takes the key's lease (if free, expired, or already ours) and flips up to `limit` eligible
   * pending messages to claimed, oldest first, atomically.
   */
  claim(request: ClaimRequest): Promise<ClaimResult>;
  /** Takes or refreshes the key's lease without claiming messages (community windows). */
  acquireLease(request: Omit<ClaimRequest, 'limit'>): Promise<boolean>;
  /** Extends our lease and the lease of our claimed messages. False if we no longer hold it. */
  renewLease(key: BatchKey, owner: string, now: Date, leaseMs: number): Promise<boolean>;
  /** Releases our lease on the key. */
  releaseLease(key: BatchKey, owner: string): Promise<void>;
  /** Marks our claimed messages processed. Returns rows changed. With `options.after`, see `CompleteOptions`. */
  complete(
    guildId: string,
    messageIds: readonly string[],
    owner: string,
    now: Date,
    options?: CompleteOptions,
  ): Promise<number>;
  /** Records a failed attempt on our claimed messages (retry with backoff or dead-letter). */
  fail(guildId: string, messageIds: readonly string[], request: FailRequest): Promise<FailResult>;
  /** Returns claimed messages with expired leases to pending and drops expired key leases. */
  releaseExpired(now: Date): Promise<number>;
  /** Dead letters back to pending with attempts reset. */
  requeueDead(guildId?: string): Promise<number>;
  counts(guildId: string): Promise<QueueCounts>;
  /** Newest chat messages of the guild (any status) created after the (createdAt, messageId) watermark, oldest first. */
  recent(
    guildId: string,
    options: {
      readonly limit: number;
      readonly after?: { readonly createdAt: Date; readonly messageId: string };
    },
  ): Promise<StoredMessage[]>;
}
