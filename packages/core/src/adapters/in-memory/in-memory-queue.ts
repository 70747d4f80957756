import type { BatchKey, StoredMessage } from '../../model/message.js';
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
} from '../../ports/ingest-queue.js';
import { IngestQueueBase } from '../../ports/port-bases.js';
import { enter, key, type MemoryState } from './state.js';

const chronological = (a: StoredMessage, b: StoredMessage) =>
  a.createdAt.getTime() - b.createdAt.getTime() ||
  (a.messageId < b.messageId ? -1 : a.messageId > b.messageId ? 1 : 0);

/** A pending chat message whose retry time has come. */
export function isEligible(m: StoredMessage, now: Date): boolean {
  return (
    m.status === 'pending' &&
    m.kind === 'chat' &&
    m.rawStored &&
    (m.nextAttemptAt === null || m.nextAttemptAt.getTime() <= now.getTime())
  );
}

export class InMemoryIngestQueue extends IngestQueueBase {
  readonly #state: MemoryState;

  constructor(state: MemoryState) {
    super();
    this.#state = state;
  }

  override async enqueue(
    message: StoredMessage,
    maxDepth: number,
    options: EnqueueOptions = {},
  ): Promise<EnqueueOutcome> {
    await enter(this.#state);
    if (options.admitted !== undefined && !(await options.admitted)) return 'withheld';
    return this.#enqueueOne(message, maxDepth);
  }

  override async enqueueMany(
    messages: readonly StoredMessage[],
    maxDepth: number,
  ): Promise<EnqueueOutcome[]> {
    await enter(this.#state);
    return messages.map((m) => this.#enqueueOne(m, maxDepth));
  }

  #enqueueOne(message: StoredMessage, maxDepth: number): EnqueueOutcome {
    const k = key(message.guildId, message.messageId);
    if (this.#state.messages.has(k)) return 'duplicate';
    if (message.status === 'pending' && this.#pending(message.guildId) >= maxDepth) return 'over_capacity';
    this.#state.messages.set(k, message);
    return 'accepted';
  }

  #pending(guildId: string): number {
    let n = 0;
    for (const m of this.#state.messages.values()) if (m.guildId === guildId && m.status === 'pending') n++;
    return n;
  }

  override async markEdited(
    guildId: string,
    messageId: string,
    content: string,
    truncated: boolean,
  ): Promise<boolean> {
    await enter(this.#state);
    const k = key(guildId, messageId);
    const m = this.#state.messages.get(k);
    if (!m) return false;
    this.#state.messages.set(k, {
      ...m,
      content: m.rawStored ? content : m.content,
      contentTruncated: truncated,
      edited: true,
    });
    return true;
  }

  override async dueKeys(query: DueKeysQuery): Promise<BatchKey[]> {
    await enter(this.#state);
    const groups = new Map<string, { key: BatchKey; count: number; oldest: number }>();
    for (const m of this.#state.messages.values()) {
      if (query.guildId !== undefined && m.guildId !== query.guildId) continue;
      if (!isEligible(m, query.now)) continue;
      const k = key(m.guildId, m.subjectKey);
      const g = groups.get(k);
      if (g) {
        g.count++;
        g.oldest = Math.min(g.oldest, m.createdAt.getTime());
      } else {
        groups.set(k, {
          key: { guildId: m.guildId, subjectKey: m.subjectKey },
          count: 1,
          oldest: m.createdAt.getTime(),
        });
      }
    }
    const now = query.now.getTime();
    return [...groups.entries()]
      .filter(([k, g]) => {
        const lease = this.#state.leases.get(k);
        if (lease && lease.until > now) return false;
        return g.count >= query.batchSize || g.oldest <= query.olderThan.getTime();
      })
      .sort((a, b) => a[1].oldest - b[1].oldest)
      .slice(0, query.limit)
      .map(([, g]) => g.key);
  }

  override async claim(request: ClaimRequest): Promise<ClaimResult> {
    await enter(this.#state);
    if (!this.#takeLease(request)) return { messages: [], lockedByOther: true };
    const until = new Date(request.now.getTime() + request.leaseMs);
    const picked = [...this.#state.messages.values()]
      .filter(
        (m) =>
          m.guildId === request.key.guildId &&
          m.subjectKey === request.key.subjectKey &&
          isEligible(m, request.now),
      )
      .sort(chronological)
      .slice(0, request.limit)
      .map((m) => {
        const claimed: StoredMessage = {
          ...m,
          status: 'claimed',
          leaseOwner: request.owner,
          leaseUntil: until,
        };
        this.#state.messages.set(key(m.guildId, m.messageId), claimed);
        return claimed;
      });
    return { messages: picked, lockedByOther: false };
  }

  override async acquireLease(request: Omit<ClaimRequest, 'limit'>): Promise<boolean> {
    await enter(this.#state);
    return this.#takeLease(request);
  }

  #takeLease(request: Omit<ClaimRequest, 'limit'>): boolean {
    const k = key(request.key.guildId, request.key.subjectKey);
    const lease = this.#state.leases.get(k);
    const now = request.now.getTime();
    if (lease && lease.owner !== request.owner && lease.until > now) return false;
    this.#state.leases.set(k, { owner: request.owner, until: now + request.leaseMs });
    return true;
  }

  override async renewLease(batchKey: BatchKey, owner: string, now: Date, leaseMs: number): Promise<boolean> {
    await enter(this.#state);
    const k = key(batchKey.guildId, batchKey.subjectKey);
    const lease = this.#state.leases.get(k);
    if (!lease || lease.owner !== owner) return false;
    const until = now.getTime() + leaseMs;
    this.#state.leases.set(k, { owner, until });
    for (const m of this.#state.messages.values()) {
      if (
        m.guildId === batchKey.guildId &&
        m.subjectKey === batchKey.subjectKey &&
        m.status === 'claimed' &&
        m.leaseOwner === owner
      ) {
        this.#state.messages.set(key(m.guildId, m.messageId), { ...m, leaseUntil: new Date(until) });
      }
    }
    return true;
  }

  override async releaseLease(batchKey: BatchKey, owner: string): Promise<void> {
    await enter(this.#state);
    const k = key(batchKey.guildId, batchKey.subjectKey);
    if (this.#state.leases.get(k)?.owner === owner) this.#state.leases.delete(k);
  }

  override async complete(
    guildId: string,
    messageIds: readonly string[],
    owner: string,
    now: Date,
    options: CompleteOptions = {},
  ): Promise<number> {
    // Nothing to prepare in memory: the batch's writes first, then the marks.
    await options.after;
    await enter(this.#state);
    let n = 0;
    for (const id of messageIds) {
      const k = key(guildId, id);
      const m = this.#state.messages.get(k);
      if (!m || m.status !== 'claimed' || m.leaseOwner !== owner) continue;
      this.#state.messages.set(k, {
        ...m,
        status: 'processed',
        processedAt: now,
        leaseOwner: null,
        leaseUntil: null,
      });
      n++;
    }
    return n;
  }

  override async fail(
    guildId: string,
    messageIds: readonly string[],
    request: FailRequest,
  ): Promise<FailResult> {
    await enter(this.#state);
    let retrying = 0;
    let dead = 0;
    let attempts = 0;
    for (const id of messageIds) {
      const k = key(guildId, id);
      const m = this.#state.messages.get(k);
      if (!m || m.status !== 'claimed' || m.leaseOwner !== request.owner) continue;
      const tries = m.attempts + 1;
      attempts = Math.max(attempts, tries);
      if (tries >= request.maxAttempts) {
        this.#state.messages.set(k, {
          ...m,
          status: 'dead',
          attempts: tries,
          leaseOwner: null,
          leaseUntil: null,
        });
        dead++;
      } else {
        const next = new Date(request.now.getTime() + request.baseBackoffMs * 2 ** (tries - 1));
        this.#state.messages.set(k, {
          ...m,
          status: 'pending',
          attempts: tries,
          nextAttemptAt: next,
          leaseOwner: null,
          leaseUntil: null,
        });
        retrying++;
      }
    }
    return { retrying, dead, attempts };
  }

  override async releaseExpired(now: Date): Promise<number> {
    await enter(this.#state);
    const t = now.getTime();
    let n = 0;
    for (const [k, m] of [...this.#state.messages.entries()]) {
      if (m.status === 'claimed' && m.leaseUntil !== null && m.leaseUntil.getTime() <= t) {
        this.#state.messages.set(k, { ...m, status: 'pending', leaseOwner: null, leaseUntil: null });
        n++;
      }
    }
    for (const [k, lease] of [...this.#state.leases.entries()])
      if (lease.until <= t) this.#state.leases.delete(k);
    return n;
  }

  override async requeueDead(guildId?: string): Promise<number> {
    await enter(this.#state);
    let n = 0;
    for (const [k, m] of [...this.#state.messages.entries()]) {
      if (m.status !== 'dead' || (guildId !== undefined && m.guildId !== guildId)) continue;
      this.#state.messages.set(k, { ...m, status: 'pending', attempts: 0, nextAttemptAt: null });
      n++;
    }
    return n;
  }

  override async counts(guildId: string): Promise<QueueCounts> {
    await enter(this.#state);
    const c = { pending: 0, claimed: 0, processed: 0, dead: 0 };
    for (const m of this.#state.messages.values()) if (m.guildId === guildId) c[m.status]++;
    return c;
  }

  override async recent(
    guildId: string,
    options: {
      readonly limit: number;
      readonly after?: { readonly createdAt: Date; readonly messageId: string };
    },
  ): Promise<StoredMessage[]> {
    await enter(this.#state);
    const after = options.after;
    const rows = [...this.#state.messages.values()]
      .filter((m) => m.guildId === guildId && m.kind === 'chat' && m.rawStored)
      .filter(
        (m) =>
          !after ||
          m.createdAt.getTime() > after.createdAt.getTime() ||
          (m.createdAt.getTime() === after.createdAt.getTime() && m.messageId > after.messageId),
      )
      .sort(chronological);
    return rows.slice(Math.max(0, rows.length - options.limit));
  }
}

export { chronological };
