import PQueue from 'p-queue';
import { ErrorCode, MemoryError } from '../errors/index.js';
import { type BatchKey, SERVER_KEY, type StoredMessage } from '../model/message.js';
import { recordBatchFailure } from './batch-failure.js';
import { type BatchReport, extractScreened, type Screened, screenBatch } from './batch-processor.js';
import { type Claimed, claimCompletion, embedMessages, keyId } from './claim-completion.js';
import { runCommunityPass } from './community-pass.js';
import type { IngestDeps } from './deps.js';
import { ErasureFence } from './erasure-fence.js';
import { withErasuresReapplied } from './fence-reapply.js';
import { heartbeatMs, reclaimCutoff } from './lease-timing.js';
import { MemberRate, memberBatchesPerHourOf } from './member-rate.js';

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
    const { store } = this.#deps;
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
      const vectors = await embedMessages(
        this.#deps,
        claims.flatMap((c) => c.messages),
      );
      const context = { owner: this.#owner, guildId, vectors, fence, lost };
      for (const [c, skip] of skipped) {
        await claimCompletion(this.#deps, [c], context).settle(store);
        finished.add(c);
        this.#succeeded(skip);
        units++;
      }
      if (parts.length === 0) return units;
      const completion = claimCompletion(this.#deps, partClaims, context);
      const result = await withErasuresReapplied(this.#deps, fence, async (reapply) => {
        const report = await extractScreened(this.#deps, guildId, parts, 'member', {
          completion,
          fence,
          reapply,
        });
        await completion.settle(store);
        return report;
      });
      for (const c of partClaims) finished.add(c);
      this.#succeeded(result);
      return units + 1;
    } catch (error) {
      // Closing aborted the call: not the batch's fault; the released lease leaves it queued.
      if (MemoryError.is(error, ErrorCode.CLOSED)) return units;
      for (const c of claims)
        if (!finished.has(c)) await recordBatchFailure(this.#deps, this.#owner, c, error);
      return units;
    }
  }

  #succeeded(result: BatchReport): void {
    this.#batches++;
    this.#lastSuccessAt = this.#deps.clock.now();
    this.#deps.events.emit('BatchCompleted', result);
  }

  /** The community pass of a guild (see runCommunityPass). */
  communityPass(guildId: string, force = false): Promise<BatchReport | null> {
    return runCommunityPass(this.#deps, this.#owner, guildId, force);
  }

  /** Resolves when every queued batch of this process has finished. */
  async idle(): Promise<void> {
    await this.#queue.onIdle();
  }
}
