import type { BatchKey, StoredMessage } from '@permafrost/core';
import type {
  ClaimRequest,
  ClaimResult,
  CompleteOptions,
  DueKeysQuery,
  EnqueueOptions,
  EnqueueOutcome,
  FailRequest,
  FailResult,
  QueueCounts,
} from '@permafrost/core/store';
import { IngestQueueBase } from '@permafrost/core/store';
import { bucketsById } from './mongo-buckets.js';
import type { MongoContext } from './mongo-context.js';
import type { MessageDoc } from './mongo-conversation-docs.js';
import { dueKeysOf } from './mongo-due-keys.js';
import { type DepthCache, enqueueRows } from './mongo-enqueue.js';
import { foldIntake, guildQueue, sweepIntake } from './mongo-intake.js';
import { finite, requireId, requireString, validDate } from './mongo-keys.js';
import { MongoLeases } from './mongo-leases.js';
import { messageKey, messageTerms } from './mongo-message-mapping.js';
import { changeItems, completeItems, failItems, sweepItems } from './mongo-queue-items.js';
import {
  bucketKey,
  byAge,
  guildFilter,
  isEligible,
  recentChat,
  storedWithItem,
} from './mongo-queue-state.js';

/** Items queued this long ago without their row ever being inserted are dropped. */
const ORPHAN_MS = 10 * 60_000;

/**
 * The message rows seen as a work queue (see mongo-queue-state.ts for where state lives).
 * - Exclusivity per key: the key lease (mongo-leases.ts).
 * - Claims: one guarded write of the key's bucket flips the chosen items to claimed.
 * - Completion is the insert of the row's outcome document, whose `_id` is the row's key: a row
 *   can be completed once, ever, on any server. It happens while the bucket version is held
 *   and only for items still claimed by the caller; the items are then removed.
 */
export class MongoIngestQueue extends IngestQueueBase {
  readonly #ctx: MongoContext;
  readonly #leases: MongoLeases;
  /** Bucket of each row claimed through this object (complete/fail need not read the rows). */
  readonly #claimed = new Map<string, string>();
  /** Queue depth per guild as last seen by this process (enqueue's capacity check). */
  readonly #depth: DepthCache = new Map();

  constructor(ctx: MongoContext) {
    super();
    // Queue work never joins a transaction scope (see MongoContext.detached).
    this.#ctx = ctx.detached();
    this.#leases = new MongoLeases(this.#ctx);
  }

  override async enqueue(
    message: StoredMessage,
    maxDepth: number,
    options: EnqueueOptions = {},
  ): Promise<EnqueueOutcome> {
    await this.#ctx.enter();
    const [outcome] = await enqueueRows(this.#ctx, [message], maxDepth, this.#depth, options.admitted);
    return outcome as EnqueueOutcome;
  }

  override async enqueueMany(
    messages: readonly StoredMessage[],
    maxDepth: number,
  ): Promise<EnqueueOutcome[]> {
    await this.#ctx.enter();
    return enqueueRows(this.#ctx, messages, maxDepth, this.#depth);
  }

  override async markEdited(
    guildId: string,
    messageId: string,
    content: string,
    truncated: boolean,
  ): Promise<boolean> {
    await this.#ctx.enter();
    const text = requireString(content, 'content');
    const key = messageKey(requireString(guildId, 'guildId'), requireString(messageId, 'messageId'));
    const outcome = await this.#ctx.guard.mutate(this.#ctx.c.messages, key, (m) => {
      if (!m) return null;
      const next = {
        ...m,
        content: m.rawStored ? text : m.content,
        contentTruncated: truncated === true,
        edited: true,
      };
      const terms = messageTerms({
        rawStored: next.rawStored,
        kind: next.kind as StoredMessage['kind'],
        content: next.content,
      });
      return { ...next, terms, termCount: terms.length };
    });
    return outcome.before !== null;
  }

  override async dueKeys(query: DueKeysQuery): Promise<BatchKey[]> {
    await this.#ctx.enter();
    const now = validDate(query.now, 'now');
    const olderThan = validDate(query.olderThan, 'olderThan').getTime();
    const [{ buckets, intake }, live] = await this.#ctx.all(
      () => guildQueue(this.#ctx, guildFilter(query.guildId)),
      () => this.#leases.liveKeys(now),
    );
    return dueKeysOf(buckets, intake, live, { ...query, now, olderThan });
  }

  override async claim(request: ClaimRequest): Promise<ClaimResult> {
    await this.#ctx.enter();
    const { key, owner, now } = request;
    if (!(await this.#leases.take(key, owner, now, request.leaseMs)))
      return { messages: [], lockedByOther: true };
    const limit = Math.max(0, Math.floor(request.limit));
    const bk = bucketKey(key.guildId, key.subjectKey);
    // The lease is held: the key's intake records can be folded into its bucket now.
    await foldIntake(this.#ctx, key.guildId, key.subjectKey);
    const bucket = (await bucketsById(this.#ctx, [bk])).get(bk);
    if (!bucket || limit === 0) return { messages: [], lockedByOther: false };
    const until = new Date(now.getTime() + finite(request.leaseMs, 'leaseMs'));
    const wanted = bucket.items
      .filter((it) => isEligible(it, now))
      .sort(byAge)
      .slice(0, limit);
    const keys = wanted.map((it) => messageKey(key.guildId, it.id));
    // Only an item whose claim expired can have been completed already (its owner died between
    // writing the outcome and updating the bucket): outcomes are checked for those alone.
    const released = wanted.filter((it) => it.rel).map((it) => messageKey(key.guildId, it.id));
    const [rows, done] = await this.#ctx.all(
      () => this.#ctx.readMany(this.#ctx.c.messages, keys),
      () => this.#ctx.readMany(this.#ctx.c.outcomes, released),
    );
    const wall = Date.now();
    const take = new Set<string>();
    const drop = new Set<string>();
    for (const it of wanted) {
      const k = messageKey(key.guildId, it.id);
      // Already completed (a crash between outcome and bucket write), or a row that was never inserted.
      if (done.has(k) || (!rows.has(k) && wall - it.ins.getTime() > ORPHAN_MS)) drop.add(it.id);
      else if (rows.has(k)) take.add(it.id);
    }
    const { after } = await changeItems(this.#ctx, bk, (it) => {
      if (drop.has(it.id)) return 'drop';
      if (!take.has(it.id) || !isEligible(it, now)) return null;
      const { rel: _released, ...rest } = it;
      return { ...rest, st: 'claimed', own: owner, until };
    });
    const claimed = (after?.items ?? []).filter(
      (it) =>
        take.has(it.id) && it.st === 'claimed' && it.own === owner && it.until?.getTime() === until.getTime(),
    );
    if (this.#claimed.size > 100_000) this.#claimed.clear();
    for (const it of claimed) this.#claimed.set(messageKey(key.guildId, it.id), bk);
    return {
      messages: claimed
        .sort(byAge)
        .map((it) => storedWithItem(rows.get(messageKey(key.guildId, it.id)) as MessageDoc, it)),
      lockedByOther: false,
    };
  }

  override async acquireLease(request: Omit<ClaimRequest, 'limit'>): Promise<boolean> {
    await this.#ctx.enter();
    return this.#leases.take(request.key, request.owner, request.now, request.leaseMs);
  }

  override async renewLease(key: BatchKey, owner: string, now: Date, leaseMs: number): Promise<boolean> {
    await this.#ctx.enter();
    const until = await this.#leases.renew(key, owner, now, leaseMs);
    if (!until) return false;
    await changeItems(this.#ctx, bucketKey(key.guildId, key.subjectKey), (it) =>
      it.st === 'claimed' && it.own === owner ? { ...it, until } : null,
    );
    return true;
  }

  override async releaseLease(key: BatchKey, owner: string): Promise<void> {
    await this.#ctx.enter();
    await this.#leases.release(key, owner);
  }

  override async complete(
    guildId: string,
    messageIds: readonly string[],
    owner: string,
    now: Date,
    options: CompleteOptions = {},
  ): Promise<number> {
    await this.#ctx.enter();
    const g = requireId(guildId, 'guildId');
    const who = requireString(owner, 'owner');
    const at = validDate(now, 'now');
    const { after } = options;
    // Awaited below on every path; this only keeps an early rejection from being reported as unhandled.
    after?.catch(() => undefined);
    let completed = 0;
    await this.#byBucket(g, messageIds, async (bk, ids) => {
      const n = await completeItems(this.#ctx, g, bk, ids, who, at, after);
      completed += n;
    });
    // Nothing to complete still settles after the batch's writes (and fails with them).
    await after;
    return completed;
  }

  override async fail(
    guildId: string,
    messageIds: readonly string[],
    request: FailRequest,
  ): Promise<FailResult> {
    await this.#ctx.enter();
    const g = requireId(guildId, 'guildId');
    const req = {
      ...request,
      owner: requireString(request.owner, 'owner'),
      now: validDate(request.now, 'now'),
    };
    const result = { retrying: 0, dead: 0, attempts: 0 };
    await this.#byBucket(g, messageIds, async (bk, ids) => {
      const r = await failItems(this.#ctx, bk, ids, req);
      result.retrying += r.retrying;
      result.dead += r.dead;
      result.attempts = Math.max(result.attempts, r.attempts);
    });
    return result;
  }

  override async releaseExpired(now: Date): Promise<number> {
    await this.#ctx.enter();
    const t = validDate(now, 'now').getTime();
    const released = await sweepItems(
      this.#ctx,
      {},
      (it) => it.st === 'claimed' && it.until !== null && it.until.getTime() <= t,
      (it) => ({ ...it, st: 'pending', own: null, until: null, rel: true }),
    );
    await this.#leases.dropExpired(now);
    await sweepIntake(this.#ctx);
    return released;
  }

  override async requeueDead(guildId?: string): Promise<number> {
    await this.#ctx.enter();
    return sweepItems(
      this.#ctx,
      guildFilter(guildId),
      (it) => it.st === 'dead',
      (it) => ({ ...it, st: 'pending', n: 0, next: null }),
    );
  }

  override async counts(guildId: string): Promise<QueueCounts> {
    await this.#ctx.enter();
    const g = { guildId: { $eq: requireString(guildId, 'guildId') } };
    const [{ buckets, intake }, processed] = await this.#ctx.all(
      () => guildQueue(this.#ctx, g),
      () => this.#ctx.c.outcomes.countDocuments(g, this.#ctx.opts()),
    );
    const c = { pending: intake.length, claimed: 0, processed, dead: 0 };
    for (const b of buckets)
      for (const it of b.items)
        if (it.st === 'pending' || it.st === 'claimed' || it.st === 'dead') c[it.st]++;
    return c;
  }

  override async recent(
    guildId: string,
    options: {
      readonly limit: number;
      readonly after?: { readonly createdAt: Date; readonly messageId: string };
    },
  ): Promise<StoredMessage[]> {
    await this.#ctx.enter();
    return recentChat(this.#ctx, guildId, options);
  }

  /** Groups message ids of a guild by bucket (known from our claims, else read from the rows). */
  async #byBucket(
    guildId: string,
    messageIds: readonly string[],
    fn: (bucket: string, ids: Set<string>) => Promise<void>,
  ) {
    const groups = new Map<string, Set<string>>();
    const add = (bk: string, id: string) => groups.set(bk, (groups.get(bk) ?? new Set<string>()).add(id));
    const unknown: string[] = [];
    for (const id of messageIds) {
      const k = messageKey(guildId, requireString(id, 'messageId'));
      const bk = this.#claimed.get(k);
      if (bk) add(bk, id);
      else unknown.push(k);
    }
    for (const r of (await this.#ctx.readMany(this.#ctx.c.messages, unknown)).values())
      add(bucketKey(r.guildId, r.subjectKey), r.messageId);
    // Buckets are independent documents (each with its own guard): all of them at once.
    await this.#ctx.all(
      ...[...groups].map(
        ([bk, ids]) =>
          () =>
            fn(bk, ids),
      ),
    );
    for (const id of messageIds) this.#claimed.delete(messageKey(guildId, id));
  }
}
