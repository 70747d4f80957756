import PQueue from 'p-queue';
import { ErrorCode, MemoryError } from '../errors/index.js';
import { type BatchKey, SERVER_KEY, type StoredMessage } from '../model/message.js';
import type { VectorItem } from '../ports/vector-index.js';
import { type BatchReport, extractBatch } from './batch-processor.js';
import type { IngestDeps } from './deps.js';

const WINDOW_CURSOR = 'server_window';

export interface RunOptions {
  /** Most batches to process in this call. */
  readonly limit?: number;
  readonly guildId?: string;
  /** Process every key with a pending message, due or not (flush). */
  readonly force?: boolean;
}

/**
 * Runs extraction batches: claims a key's messages under a lease (renewed every lease/3 while the
 * batch runs), extracts and commits, then marks the messages processed. A failure counts an
 * attempt: the messages retry with exponential backoff and become dead letters after
 * `workers.maxAttempts`. Concurrency comes from a p-queue of `workers.count`.
 */
export class IngestEngine {
  readonly #deps: IngestDeps;
  readonly #owner: string;
  readonly #queue: PQueue;
  readonly #inFlight = new Set<string>();
  #lastSuccessAt: Date | null = null;
  #batches = 0;

  constructor(deps: IngestDeps, owner: string) {
    this.#deps = deps;
    this.#owner = owner;
    this.#queue = new PQueue({ concurrency: deps.config.workers.count });
  }

  get owner(): string {
    return this.#owner;
  }

  get lastSuccessAt(): Date | null {
    return this.#lastSuccessAt;
  }

  get batchesProcessed(): number {
    return this.#batches;
  }

  /** Processes due batches now (cron / split-process mode). Returns batches processed. */
  async runPending(options: RunOptions = {}): Promise<number> {
    const { store, clock, config } = this.#deps;
    const limit = options.limit ?? 64;
    await store.queue.releaseExpired(clock.now());
    const now = clock.now();
    const keys = await store.queue.dueKeys({
      now,
      batchSize: options.force ? 1 : config.batching.batchSizeMessages,
      olderThan: options.force
        ? new Date(8.64e15)
        : new Date(now.getTime() - config.batching.maxAgeSeconds * 1000),
      limit,
      ...(options.guildId !== undefined ? { guildId: options.guildId } : {}),
    });
    const jobs = keys
      .filter((k) => !this.#inFlight.has(`${k.guildId}\u0000${k.subjectKey}`))
      .map((key) => this.#queue.add(() => this.processKey(key)));
    const results = await Promise.all(jobs);
    return results.filter((r) => r !== null).length;
  }

  /** Claims and processes one batch of a key. Returns null when nothing was claimed. */
  async processKey(key: BatchKey): Promise<BatchReport | null> {
    const { store, clock, config, events, logger } = this.#deps;
    const id = `${key.guildId}\u0000${key.subjectKey}`;
    if (this.#inFlight.has(id)) return null;
    this.#inFlight.add(id);
    const leaseMs = config.batching.leaseSeconds * 1000;
    let claimed: readonly StoredMessage[] = [];
    let lost = false;
    const heartbeat = setInterval(
      () => {
        store.queue.renewLease(key, this.#owner, clock.now(), leaseMs).then(
          (ok) => {
            if (!ok) lost = true;
          },
          () => {
            lost = true;
          },
        );
      },
      Math.max(1000, leaseMs / 3),
    );
    heartbeat.unref?.();
    try {
      const claim = await store.queue.claim({
        key,
        owner: this.#owner,
        now: clock.now(),
        leaseMs,
        limit: config.batching.batchSizeMessages,
      });
      claimed = claim.messages;
      if (claimed.length === 0) return null;
      const batch = claimed;
      // Embedded before the commit: no model or network call may run inside a store transaction.
      const messageVectors = await this.#embedMessages(batch);
      let finalized = false;
      // Completion commits atomically with the batch's facts (or alone when there are none): a
      // crash in between could otherwise extract and reinforce the same batch a second time.
      const finalize = async () => {
        const lostError = () =>
          new MemoryError(ErrorCode.CONFLICT, 'the batch lease was lost while extracting');
        if (lost) throw lostError();
        if (messageVectors.length > 0) await store.vectors.upsert(messageVectors);
        const done = await store.queue.complete(
          key.guildId,
          batch.map((m) => m.messageId),
          this.#owner,
          clock.now(),
        );
        // Fewer rows than claimed: another worker took the key over; roll the commit back.
        if (done !== batch.length) throw lostError();
        finalized = true;
      };
      const result = await extractBatch(this.#deps, key.guildId, key.subjectKey, batch, 'member', {
        finalize,
      });
      if (!finalized) await store.transaction(finalize);
      this.#batches++;
      this.#lastSuccessAt = clock.now();
      events.emit('BatchCompleted', result);
      return result;
    } catch (error) {
      if (claimed.length > 0) await this.#fail(key, claimed, error);
      else logger?.({ level: 'warn', event: 'ingest.claim_failed', data: { guildId: key.guildId }, error });
      return null;
    } finally {
      clearInterval(heartbeat);
      this.#inFlight.delete(id);
      await store.queue.releaseLease(key, this.#owner).catch(() => undefined);
    }
  }

  /** Message vectors for conversation search are computed here, never on the observe path. */
  async #embedMessages(messages: readonly StoredMessage[]): Promise<VectorItem[]> {
    const rows = messages.filter((m) => m.rawStored && m.content.trim().length > 0);
    if (rows.length === 0) return [];
    const vectors = await this.#deps.embedder.embed(rows.map((m) => m.content));
    return rows.map((m, i) => ({
      kind: 'message' as const,
      id: m.messageId,
      guildId: m.guildId,
      subjectId: m.authorId,
      active: true,
      vector: vectors[i] as Float32Array,
    }));
  }

  async #fail(key: BatchKey, claimed: readonly StoredMessage[], error: unknown): Promise<void> {
    const { store, clock, config, events, logger } = this.#deps;
    const code = MemoryError.is(error) ? error.code : 'INTERNAL';
    logger?.({
      level: 'warn',
      event: 'ingest.batch_failed',
      data: { guildId: key.guildId, code, messages: claimed.length },
      error,
    });
    try {
      const r = await store.queue.fail(
        key.guildId,
        claimed.map((m) => m.messageId),
        {
          owner: this.#owner,
          now: clock.now(),
          maxAttempts: config.workers.maxAttempts,
          baseBackoffMs: config.workers.backoffBaseSeconds * 1000,
        },
      );
      events.emit('ExtractionFailed', {
        guildId: key.guildId,
        subjectKey: key.subjectKey,
        attempt: r.attempts,
        deadLettered: r.dead > 0,
        errorCode: code,
      });
    } catch (failError) {
      logger?.({
        level: 'error',
        event: 'ingest.fail_record_failed',
        data: { guildId: key.guildId },
        error: failError,
      });
    }
  }

  /**
   * The community pass: reads the guild's newest messages past a watermark (any author) and keeps
   * only server facts. Runs when enough new messages arrived (or always when forced); failures
   * leave the watermark in place for a later pass.
   */
  async communityPass(guildId: string, force = false): Promise<BatchReport | null> {
    const { store, clock, config, events, logger } = this.#deps;
    const key = { guildId, subjectKey: SERVER_KEY };
    const leaseMs = config.batching.leaseSeconds * 1000;
    if (!(await store.queue.acquireLease({ key, owner: this.#owner, now: clock.now(), leaseMs })))
      return null;
    try {
      const cursor = await store.governance.getCursor(guildId, WINDOW_CURSOR);
      const after = parseCursor(cursor);
      const window = config.batching.serverWindowMessages;
      const messages = await store.queue.recent(guildId, { limit: window, ...(after ? { after } : {}) });
      const minimum = force ? 1 : Math.max(config.batching.batchSizeMessages, Math.ceil(window / 2));
      if (messages.length < minimum) return null;
      const newest = messages[messages.length - 1] as StoredMessage;
      let finalized = false;
      // The watermark moves in the commit transaction of the window's facts (see processKey).
      const finalize = async () => {
        await store.governance.setCursor(
          guildId,
          WINDOW_CURSOR,
          `${newest.createdAt.toISOString()}|${newest.messageId}`,
        );
        finalized = true;
      };
      const result = await extractBatch(this.#deps, guildId, SERVER_KEY, messages, 'community', { finalize });
      if (!finalized) await store.transaction(finalize);
      events.emit('BatchCompleted', result);
      return result;
    } catch (error) {
      logger?.({ level: 'warn', event: 'ingest.community_failed', data: { guildId }, error });
      return null;
    } finally {
      await store.queue.releaseLease(key, this.#owner).catch(() => undefined);
    }
  }

  /** Resolves when every queued batch of this process has finished. */
  async idle(): Promise<void> {
    await this.#queue.onIdle();
  }
}

function parseCursor(cursor: string | null): { createdAt: Date; messageId: string } | null {
  if (!cursor) return null;
  const split = cursor.indexOf('|');
  if (split < 0) return null;
  const createdAt = new Date(cursor.slice(0, split));
  return Number.isNaN(createdAt.getTime()) ? null : { createdAt, messageId: cursor.slice(split + 1) };
}
