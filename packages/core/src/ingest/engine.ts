import PQueue from 'p-queue';
import { ErrorCode, MemoryError } from '../errors/index.js';
import { type BatchKey, SERVER_KEY, type StoredMessage } from '../model/message.js';
import type { VectorItem } from '../ports/vector-index.js';
import {
  type BatchReport,
  extractBatch,
  extractScreened,
  type Screened,
  screenBatch,
} from './batch-processor.js';
import type { IngestDeps } from './deps.js';
import { ErasureFence, messageErased } from './erasure-fence.js';
import { reapplyErasures } from './fence-reapply.js';
import { heartbeatMs, reclaimCutoff } from './lease-timing.js';
import { MemberRate, memberBatchesPerHourOf } from './member-rate.js';

const WINDOW_CURSOR = 'server_window';

const keyId = (key: BatchKey) => `${key.guildId}\u0000${key.subjectKey}`;

/** One key's claimed messages. */
interface Claimed {
  readonly key: BatchKey;
  readonly messages: readonly StoredMessage[];
}

export interface RunOptions {
  /** Most batches to process in this call. */
  readonly limit?: number;
  readonly guildId?: string;
  /** Process every key with a pending message, due or not (flush). */
  readonly force?: boolean;
}

/**
 * Runs extraction batches: claims keys' messages under leases (renewed every lease/3 while the
 * batch runs; due keys of one guild share a call up to `batching.maxMessagesPerCall` messages),
 * extracts and commits, then marks the messages processed. A failure counts an
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

  /** Per-member share of extraction batches (token bucket). */
  readonly #share: MemberRate;

  constructor(deps: IngestDeps, owner: string) {
    this.#deps = deps;
    this.#owner = owner;
    const perHour = memberBatchesPerHourOf(deps.config);
    this.#share = new MemberRate(perHour, perHour, 3_600_000);
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

  /**
   * Processes due batches now (cron / split-process mode). Due keys of one guild share extraction
   * calls up to `batching.maxMessagesPerCall` messages. Returns batch units completed (a unit is one
   * extraction call, or one member's batch closed without a call).
   */
  async runPending(options: RunOptions = {}): Promise<number> {
    const { store, clock, config } = this.#deps;
    const limit = options.limit ?? 64;
    await store.queue.releaseExpired(reclaimCutoff(clock.now(), config.batching));
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
    const byGuild = new Map<string, BatchKey[]>();
    for (const key of keys) {
      if (this.#inFlight.has(keyId(key))) continue;
      const list = byGuild.get(key.guildId) ?? [];
      list.push(key);
      byGuild.set(key.guildId, list);
    }
    const { batchSizeMessages, maxMessagesPerCall } = config.batching;
    const jobs: Promise<number>[] = [];
    for (const pending of byGuild.values()) {
      // Enough lanes to keep the workers busy, few enough that each call fills up before a second
      // lane takes keys of the same guild.
      const calls = Math.ceil(
        (pending.length * batchSizeMessages) / Math.max(batchSizeMessages, maxMessagesPerCall),
      );
      const lanes = Math.max(1, Math.min(config.workers.count, calls));
      for (let i = 0; i < lanes; i++) jobs.push(this.#queue.add(() => this.#drain(pending)));
    }
    const results = await Promise.all(jobs);
    return results.reduce((a, b) => a + b, 0);
  }

  /** Takes keys from the guild's shared list until it is empty; returns units completed. */
  async #drain(pending: BatchKey[]): Promise<number> {
    let units = 0;
    while (pending.length > 0) units += await this.#processGroup(pending);
    return units;
  }

  /**
   * Claims keys from `pending` (one lease each, renewed every lease/3) until the call is full,
   * screens each key's messages, closes noise-only and similar batches on their own, and runs one
   * extraction call over the rest. Returns units completed.
   */
  async #processGroup(pending: BatchKey[]): Promise<number> {
    const { store, clock, config } = this.#deps;
    const leaseMs = config.batching.leaseSeconds * 1000;
    const { batchSizeMessages, maxMessagesPerCall } = config.batching;
    const capacity = Math.max(batchSizeMessages, maxMessagesPerCall);
    const claims: Claimed[] = [];
    const lost = new Set<string>();
    const heartbeat = setInterval(() => {
      for (const { key } of claims)
        store.queue.renewLease(key, this.#owner, clock.now(), leaseMs).then(
          (ok) => {
            if (!ok) lost.add(keyId(key));
          },
          () => lost.add(keyId(key)),
        );
    }, heartbeatMs(config.batching));
    heartbeat.unref?.();
    const held: BatchKey[] = [];
    let units = 0;
    try {
      // Before any message is read: erasures from here on are honoured when the batch commits.
      const fence = await ErasureFence.open(store, (pending[0] as BatchKey).guildId);
      let total = 0;
      const sharing = maxMessagesPerCall > batchSizeMessages;
      const take = async (key: BatchKey) => {
        if (this.#inFlight.has(keyId(key))) return;
        // A member past its share of extraction waits; other members' batches go first.
        if (key.subjectKey !== SERVER_KEY && !this.#share.take(key.guildId, key.subjectKey, clock.now()))
          return;
        this.#inFlight.add(keyId(key));
        held.push(key);
        const messages = await this.#claim(key, Math.min(batchSizeMessages, capacity - total), leaseMs);
        if (messages.length === 0) return;
        claims.push({ key, messages });
        total += messages.length;
      };
      while (pending.length > 0 && total < capacity) {
        await take(pending.shift() as BatchKey);
        // Without sharing, every key is its own call.
        if (!sharing && claims.length > 0) break;
      }
      if (claims.length === 0) return 0;
      // A call with room to spare takes other members' pending messages of the guild along, due or
      // not yet: each of those batches would otherwise need a call of its own later. Only once a
      // due batch has passed screening: noise alone never pulls anyone's messages forward.
      const fill = async () => {
        if (!sharing || total >= capacity) return;
        const others = await store.queue.dueKeys({
          now: clock.now(),
          batchSize: 1,
          olderThan: new Date(8.64e15),
          limit: capacity,
          guildId: (claims[0] as Claimed).key.guildId,
        });
        for (const key of others) {
          if (total >= capacity) break;
          if (key.subjectKey !== SERVER_KEY) await take(key);
        }
      };
      units = await this.#extractGroup(claims, lost, fill, fence);
      return units;
    } finally {
      clearInterval(heartbeat);
      for (const key of held) {
        this.#inFlight.delete(keyId(key));
        await store.queue.releaseLease(key, this.#owner).catch(() => undefined);
      }
    }
  }

  async #claim(key: BatchKey, limit: number, leaseMs: number): Promise<readonly StoredMessage[]> {
    const { store, clock, logger } = this.#deps;
    try {
      const claim = await store.queue.claim({ key, owner: this.#owner, now: clock.now(), leaseMs, limit });
      return claim.messages;
    } catch (error) {
      logger?.({ level: 'warn', event: 'ingest.claim_failed', data: { guildId: key.guildId }, error });
      return [];
    }
  }

  /**
   * Screens claimed batches (growing `claims` through `fill` once one passes), closes those that
   * need no call, extracts the rest in one call and completes them; failures retry each key's
   * messages.
   */
  async #extractGroup(
    claims: Claimed[],
    lost: ReadonlySet<string>,
    fill: () => Promise<void>,
    fence: ErasureFence,
  ): Promise<number> {
    const { store, clock } = this.#deps;
    const guildId = (claims[0] as Claimed).key.guildId;
    const finished = new Set<Claimed>();
    let units = 0;
    try {
      const parts: Extract<Screened, { messages: unknown }>[] = [];
      const partClaims: Claimed[] = [];
      const skipped: [Claimed, BatchReport][] = [];
      let filled = false;
      for (let i = 0; i < claims.length; i++) {
        const c = claims[i] as Claimed;
        const screened = await screenBatch(this.#deps, guildId, c.key.subjectKey, c.messages, 'member');
        if ('skip' in screened) skipped.push([c, screened.skip]);
        else {
          parts.push(screened);
          partClaims.push(c);
        }
        if (!filled && parts.length > 0 && i === claims.length - 1) {
          filled = true;
          await fill();
        }
      }
      // Embedded before any commit: no model or network call may run inside a store transaction.
      const vectors = await this.#embedMessages(claims.flatMap((c) => c.messages));
      const complete = async (done: readonly Claimed[]) => {
        const lostError = () =>
          new MemoryError(ErrorCode.CONFLICT, 'the batch lease was lost while extracting');
        if (done.some((c) => lost.has(keyId(c.key)))) throw lostError();
        // Messages erased since the batch began are gone (or stored anew, for an edit): no vector
        // of theirs is written back and they are not this batch's to complete.
        const erased = await fence.check();
        const live = (c: Claimed) => c.messages.filter((m) => !messageErased(m, erased));
        const ids = new Set(done.flatMap((c) => live(c).map((m) => m.messageId)));
        const mine = vectors.filter((v) => ids.has(v.id));
        if (mine.length > 0) await store.vectors.upsert(mine);
        for (const c of done) {
          const kept = live(c);
          if (kept.length === 0) continue;
          const n = await store.queue.complete(
            guildId,
            kept.map((m) => m.messageId),
            this.#owner,
            clock.now(),
          );
          // Fewer rows than claimed: another worker took the key over; roll the commit back.
          if (n !== kept.length) throw lostError();
        }
      };
      for (const [c, skip] of skipped) {
        await store.transaction(() => complete([c]));
        finished.add(c);
        this.#succeeded(skip);
        units++;
      }
      if (parts.length === 0) return units;
      let finalized = false;
      // Completion commits atomically with the batch's facts (or alone when there are none): a
      // crash in between could otherwise extract and reinforce the same batch a second time.
      const finalize = async () => {
        await complete(partClaims);
        finalized = true;
      };
      const result = await extractScreened(this.#deps, guildId, parts, 'member', { finalize, fence });
      if (!finalized) await store.transaction(finalize);
      await reapplyErasures(this.#deps, fence);
      for (const c of partClaims) finished.add(c);
      this.#succeeded(result);
      return units + 1;
    } catch (error) {
      // Closing aborted the call: not the batch's fault; the released lease leaves it queued.
      if (MemoryError.is(error, ErrorCode.CLOSED)) return units;
      for (const c of claims) if (!finished.has(c)) await this.#fail(c.key, c.messages, error);
      return units;
    }
  }

  #succeeded(result: BatchReport): void {
    this.#batches++;
    this.#lastSuccessAt = this.#deps.clock.now();
    this.#deps.events.emit('BatchCompleted', result);
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
    // Renewed like batch leases, so a live pass is never taken for a dead owner's.
    const heartbeat = setInterval(() => {
      store.queue.acquireLease({ key, owner: this.#owner, now: clock.now(), leaseMs }).catch(() => false);
    }, heartbeatMs(config.batching));
    heartbeat.unref?.();
    try {
      const fence = await ErasureFence.open(store, guildId);
      const cursor = await store.cursors.getCursor(guildId, WINDOW_CURSOR);
      const after = parseCursor(cursor);
      const window = config.batching.serverWindowMessages;
      const messages = await store.queue.recent(guildId, { limit: window, ...(after ? { after } : {}) });
      const minimum = force ? 1 : Math.max(config.batching.batchSizeMessages, Math.ceil(window / 2));
      if (messages.length < minimum) return null;
      const newest = messages[messages.length - 1] as StoredMessage;
      let finalized = false;
      // The watermark moves in the commit transaction of the window's facts (see processKey).
      const finalize = async () => {
        await store.cursors.setCursor(
          guildId,
          WINDOW_CURSOR,
          `${newest.createdAt.toISOString()}|${newest.messageId}`,
        );
        finalized = true;
      };
      const result = await extractBatch(this.#deps, guildId, SERVER_KEY, messages, 'community', {
        finalize,
        fence,
      });
      if (!finalized) await store.transaction(finalize);
      await reapplyErasures(this.#deps, fence);
      events.emit('BatchCompleted', result);
      return result;
    } catch (error) {
      logger?.({ level: 'warn', event: 'ingest.community_failed', data: { guildId }, error });
      return null;
    } finally {
      clearInterval(heartbeat);
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
