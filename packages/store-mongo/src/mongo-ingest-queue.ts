import type {
  BatchKey,
  ClaimRequest,
  ClaimResult,
  DueKeysQuery,
  EnqueueOutcome,
  FailRequest,
  FailResult,
  IngestQueue,
  QueueCounts,
  StoredMessage,
} from '@permafrost/core';
import type { Document } from 'mongodb';
import { insertTolerant } from './doc-guard.js';
import { type MongoContext, raw } from './mongo-context.js';
import type { MessageDoc } from './mongo-docs.js';
import { finite, newEpoch, requireString, validDate } from './mongo-keys.js';
import { leaseKey, MongoLeases } from './mongo-leases.js';
import {
  CHRONOLOGICAL,
  fromMessageDoc,
  messageKey,
  messageTerms,
  REVERSE_CHRONOLOGICAL,
  toMessageDoc,
} from './mongo-message-mapping.js';
import { deleteMessages, eligibleQuery, guildFilter, isEligible } from './mongo-message-ops.js';

const chronological = (a: MessageDoc, b: MessageDoc) =>
  a.createdAt.getTime() - b.createdAt.getTime() ||
  (a.messageId < b.messageId ? -1 : a.messageId > b.messageId ? 1 : 0);

/**
 * The message rows seen as a work queue. Batch exclusivity comes from the key lease
 * (mongo-leases.ts); every status change of a row is a guarded write (doc-guard.ts), so a row is
 * claimed, completed or returned to pending by exactly one writer even where the server's updates
 * are not atomic (FerretDB), and `complete` only counts rows still claimed by the caller.
 */
export class MongoIngestQueue implements IngestQueue {
  readonly #ctx: MongoContext;
  readonly #leases: MongoLeases;

  constructor(ctx: MongoContext) {
    this.#ctx = ctx;
    this.#leases = new MongoLeases(ctx);
  }

  async enqueue(message: StoredMessage, maxDepth: number): Promise<EnqueueOutcome> {
    return (await this.enqueueMany([message], maxDepth))[0] as EnqueueOutcome;
  }

  async enqueueMany(messages: readonly StoredMessage[], maxDepth: number): Promise<EnqueueOutcome[]> {
    await this.#ctx.enter();
    const docs = messages.map(toMessageDoc);
    const existing = await this.#ctx.readMany(
      this.#ctx.c.messages,
      docs.map((d) => d._id),
    );
    const guilds = [...new Set(docs.filter((d) => d.status === 'pending').map((d) => d.guildId))];
    const depth = new Map<string, number>();
    await this.#ctx.each(guilds, async (g) => {
      depth.set(g, await this.#ctx.c.messages.countDocuments({ guildId: { $eq: g }, status: 'pending' }));
    });
    const outcomes: EnqueueOutcome[] = [];
    const seen = new Set<string>();
    const accepted: { index: number; doc: MessageDoc }[] = [];
    for (const [i, d] of docs.entries()) {
      if (existing.has(d._id) || seen.has(d._id)) {
        outcomes.push('duplicate');
      } else if (d.status === 'pending' && (depth.get(d.guildId) ?? 0) >= maxDepth) {
        outcomes.push('over_capacity');
      } else {
        outcomes.push('accepted');
        seen.add(d._id);
        if (d.status === 'pending') depth.set(d.guildId, (depth.get(d.guildId) ?? 0) + 1);
        accepted.push({ index: i, doc: { ...d, ep: newEpoch() } });
      }
    }
    const lost = await insertTolerant(
      raw(this.#ctx.c.messages),
      accepted.map((a) => a.doc),
    );
    for (const i of lost) outcomes[(accepted[i] as { index: number }).index] = 'duplicate';
    return outcomes;
  }

  async markEdited(
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

  async dueKeys(query: DueKeysQuery): Promise<BatchKey[]> {
    await this.#ctx.enter();
    const filter: Document = { ...eligibleQuery(query.now), ...guildFilter(query.guildId) };
    const [rows, live] = await this.#ctx.all(
      () =>
        this.#ctx.c.messages
          .find(filter, {
            projection: { _id: 0, guildId: 1, subjectKey: 1, createdAt: 1 },
            ...this.#ctx.opts(),
          })
          .toArray(),
      () => this.#leases.liveKeys(query.now),
    );
    const groups = new Map<string, { key: BatchKey; count: number; oldest: number }>();
    for (const r of rows) {
      const k = leaseKey(r.guildId, r.subjectKey);
      const t = r.createdAt.getTime();
      const g = groups.get(k);
      if (g) {
        g.count++;
        g.oldest = Math.min(g.oldest, t);
      } else groups.set(k, { key: { guildId: r.guildId, subjectKey: r.subjectKey }, count: 1, oldest: t });
    }
    const olderThan = validDate(query.olderThan, 'olderThan').getTime();
    return [...groups.entries()]
      .filter(([k, g]) => !live.has(k) && (g.count >= query.batchSize || g.oldest <= olderThan))
      .sort((a, b) => a[1].oldest - b[1].oldest || (a[0] < b[0] ? -1 : 1))
      .slice(0, Math.max(0, query.limit))
      .map(([, g]) => g.key);
  }

  async claim(request: ClaimRequest): Promise<ClaimResult> {
    await this.#ctx.enter();
    const { key, owner, now } = request;
    if (!(await this.#leases.take(key, owner, now, request.leaseMs)))
      return { messages: [], lockedByOther: true };
    const until = new Date(now.getTime() + finite(request.leaseMs, 'leaseMs'));
    const limit = Math.max(0, Math.floor(request.limit));
    if (limit === 0) return { messages: [], lockedByOther: false };
    const candidates = await this.#ctx.c.messages
      .find(
        { ...eligibleQuery(now), guildId: { $eq: key.guildId }, subjectKey: { $eq: key.subjectKey } },
        { sort: CHRONOLOGICAL, limit, projection: { _id: 1 }, ...this.#ctx.opts() },
      )
      .toArray();
    const out = await this.#ctx.guard.mutateMany(
      this.#ctx.c.messages,
      candidates.map((c) => c._id),
      (m) =>
        m && isEligible(m, now) ? { ...m, status: 'claimed', leaseOwner: owner, leaseUntil: until } : null,
    );
    const claimed = [...out.values()].flatMap((o) => (o.changed && o.after ? [o.after] : []));
    return { messages: claimed.sort(chronological).map(fromMessageDoc), lockedByOther: false };
  }

  async acquireLease(request: Omit<ClaimRequest, 'limit'>): Promise<boolean> {
    await this.#ctx.enter();
    return this.#leases.take(request.key, request.owner, request.now, request.leaseMs);
  }

  async renewLease(key: BatchKey, owner: string, now: Date, leaseMs: number): Promise<boolean> {
    await this.#ctx.enter();
    const until = await this.#leases.renew(key, owner, now, leaseMs);
    if (!until) return false;
    const mine = await this.#ctx.c.messages
      .find(
        {
          status: 'claimed',
          guildId: { $eq: key.guildId },
          subjectKey: { $eq: key.subjectKey },
          leaseOwner: { $eq: owner },
        },
        { projection: { _id: 1 }, ...this.#ctx.opts() },
      )
      .toArray();
    await this.#ctx.guard.mutateMany(
      this.#ctx.c.messages,
      mine.map((m) => m._id),
      (m) => (m && m.status === 'claimed' && m.leaseOwner === owner ? { ...m, leaseUntil: until } : null),
    );
    return true;
  }

  async releaseLease(key: BatchKey, owner: string): Promise<void> {
    await this.#ctx.enter();
    await this.#leases.release(key, owner);
  }

  async complete(guildId: string, messageIds: readonly string[], owner: string, now: Date): Promise<number> {
    await this.#ctx.enter();
    const at = validDate(now, 'now');
    const out = await this.#mutateOwned(guildId, messageIds, owner, (m) => ({
      ...m,
      status: 'processed',
      processedAt: at,
      leaseOwner: null,
      leaseUntil: null,
    }));
    return out.filter((m) => m.status === 'processed').length;
  }

  async fail(guildId: string, messageIds: readonly string[], request: FailRequest): Promise<FailResult> {
    await this.#ctx.enter();
    const now = validDate(request.now, 'now').getTime();
    const out = await this.#mutateOwned(guildId, messageIds, request.owner, (m) => {
      const tries = m.attempts + 1;
      if (tries >= request.maxAttempts)
        return { ...m, status: 'dead', attempts: tries, leaseOwner: null, leaseUntil: null };
      const next = new Date(now + request.baseBackoffMs * 2 ** (tries - 1));
      return {
        ...m,
        status: 'pending',
        attempts: tries,
        nextAttemptAt: next,
        leaseOwner: null,
        leaseUntil: null,
      };
    });
    return {
      retrying: out.filter((m) => m.status === 'pending').length,
      dead: out.filter((m) => m.status === 'dead').length,
      attempts: out.reduce((n, m) => Math.max(n, m.attempts), 0),
    };
  }

  /** Applies `next` to the rows still claimed by `owner`; returns the rows written. */
  async #mutateOwned(
    guildId: string,
    messageIds: readonly string[],
    owner: string,
    next: (m: MessageDoc) => MessageDoc,
  ): Promise<MessageDoc[]> {
    const g = requireString(guildId, 'guildId');
    const who = requireString(owner, 'owner');
    const keys = messageIds.map((id) => messageKey(g, requireString(id, 'messageId')));
    const out = await this.#ctx.guard.mutateMany(this.#ctx.c.messages, keys, (m) =>
      m && m.status === 'claimed' && m.leaseOwner === who ? next(m) : null,
    );
    return [...out.values()].flatMap((o) => (o.changed && o.after ? [o.after] : []));
  }

  async releaseExpired(now: Date): Promise<number> {
    await this.#ctx.enter();
    const t = validDate(now, 'now').getTime();
    const expired = await this.#ctx.c.messages
      .find({ status: 'claimed', leaseUntil: { $lte: now } }, { projection: { _id: 1 }, ...this.#ctx.opts() })
      .toArray();
    const out = await this.#ctx.guard.mutateMany(
      this.#ctx.c.messages,
      expired.map((m) => m._id),
      (m) =>
        m && m.status === 'claimed' && m.leaseUntil !== null && m.leaseUntil.getTime() <= t
          ? { ...m, status: 'pending', leaseOwner: null, leaseUntil: null }
          : null,
    );
    await this.#leases.dropExpired(now);
    return [...out.values()].filter((o) => o.changed).length;
  }

  async requeueDead(guildId?: string): Promise<number> {
    await this.#ctx.enter();
    const filter: Document = { status: 'dead', ...guildFilter(guildId) };
    const dead = await this.#ctx.c.messages
      .find(filter, { projection: { _id: 1 }, ...this.#ctx.opts() })
      .toArray();
    const out = await this.#ctx.guard.mutateMany(
      this.#ctx.c.messages,
      dead.map((m) => m._id),
      (m) =>
        m && m.status === 'dead' ? { ...m, status: 'pending', attempts: 0, nextAttemptAt: null } : null,
    );
    return [...out.values()].filter((o) => o.changed).length;
  }

  async counts(guildId: string): Promise<QueueCounts> {
    await this.#ctx.enter();
    const rows = await raw(this.#ctx.c.messages)
      .aggregate<{ _id: string; n: number }>(
        [
          { $match: { guildId: { $eq: requireString(guildId, 'guildId') } } },
          { $group: { _id: '$status', n: { $sum: 1 } } },
        ],
        this.#ctx.opts(),
      )
      .toArray();
    const c = { pending: 0, claimed: 0, processed: 0, dead: 0 };
    for (const r of rows) if (r._id in c) c[r._id as keyof typeof c] = r.n;
    return c;
  }

  async recent(
    guildId: string,
    options: {
      readonly limit: number;
      readonly after?: { readonly createdAt: Date; readonly messageId: string };
    },
  ): Promise<StoredMessage[]> {
    await this.#ctx.enter();
    if (options.limit <= 0) return [];
    let filter: Document = {
      guildId: { $eq: requireString(guildId, 'guildId') },
      kind: 'chat',
      rawStored: true,
    };
    if (options.after) {
      const at = validDate(options.after.createdAt, 'after.createdAt');
      const id = requireString(options.after.messageId, 'after.messageId');
      filter = { ...filter, $or: [{ createdAt: { $gt: at } }, { createdAt: at, messageId: { $gt: id } }] };
    }
    const docs = await this.#ctx.c.messages
      .find(filter, { sort: REVERSE_CHRONOLOGICAL, limit: Math.floor(options.limit), ...this.#ctx.opts() })
      .toArray();
    return docs.reverse().map((d) => fromMessageDoc(d as MessageDoc));
  }

  async pruneProcessed(olderThan: Date, guildId?: string): Promise<number> {
    await this.#ctx.enter();
    const filter: Document = {
      status: 'processed',
      createdAt: { $lt: validDate(olderThan, 'olderThan') },
      ...guildFilter(guildId),
    };
    const rows = await this.#ctx.c.messages
      .find(filter, { projection: { _id: 1 }, ...this.#ctx.opts() })
      .toArray();
    return deleteMessages(
      this.#ctx,
      rows.map((r) => r._id),
    );
  }
}
