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
import type { SqliteConnection } from './connection.js';
import type { MessageTable } from './message-table.js';
import { idList } from './rows/codec.js';
import {
  CHRONOLOGICAL,
  type MessageRow,
  messageFields,
  messageFromRow,
  REVERSE_CHRONOLOGICAL,
} from './rows/message-row.js';

/** A pending chat message with raw content whose retry time has come (`?` = now). */
const ELIGIBLE = `status = 'pending' AND kind = 'chat' AND raw_stored = 1
  AND (next_attempt_at IS NULL OR next_attempt_at <= ?)`;

const chronological = (a: StoredMessage, b: StoredMessage) =>
  a.createdAt.getTime() - b.createdAt.getTime() ||
  (a.messageId < b.messageId ? -1 : a.messageId > b.messageId ? 1 : 0);

/** The message table seen as a work queue: leases by compare-and-set upsert, claims, retries. */
export class SqliteIngestQueue extends IngestQueueBase {
  readonly #c: SqliteConnection;
  readonly #m: MessageTable;

  constructor(connection: SqliteConnection, messages: MessageTable) {
    super();
    this.#c = connection;
    this.#m = messages;
  }

  #enqueueOne(message: StoredMessage, maxDepth: number): EnqueueOutcome {
    if (this.#m.exists(message.guildId, message.messageId)) return 'duplicate';
    if (message.status === 'pending' && this.#m.pending(message.guildId) >= maxDepth) return 'over_capacity';
    this.#m.insert(message);
    return 'accepted';
  }

  override async enqueue(
    message: StoredMessage,
    maxDepth: number,
    options: EnqueueOptions = {},
  ): Promise<EnqueueOutcome> {
    // A local write costs no round trip: the consent answer is awaited before anything is written.
    if (options.admitted !== undefined && !(await options.admitted)) return 'withheld';
    return this.#c.write(() => this.#enqueueOne(message, maxDepth));
  }

  override enqueueMany(messages: readonly StoredMessage[], maxDepth: number): Promise<EnqueueOutcome[]> {
    return this.#c.write(() => messages.map((m) => this.#enqueueOne(m, maxDepth)));
  }

  override markEdited(
    guildId: string,
    messageId: string,
    content: string,
    truncated: boolean,
  ): Promise<boolean> {
    return this.#c.write(() => this.#m.markEdited(guildId, messageId, content, truncated));
  }

  override dueKeys(query: DueKeysQuery): Promise<BatchKey[]> {
    return this.#c.run(() => {
      const now = query.now.getTime();
      const guild = query.guildId === undefined ? '' : ' AND m.guild_id = ?';
      const rows = this.#c
        .stmt(
          `SELECT m.guild_id, m.subject_key, count(*) AS n, min(m.created_at) AS oldest FROM messages m
             WHERE m.status = 'pending' AND m.kind = 'chat' AND m.raw_stored = 1
               AND (m.next_attempt_at IS NULL OR m.next_attempt_at <= ?)${guild}
               AND NOT EXISTS (SELECT 1 FROM key_leases l WHERE l.guild_id = m.guild_id
                 AND l.subject_key = m.subject_key AND l.lease_until > ?)
             GROUP BY m.guild_id, m.subject_key
             HAVING count(*) >= ? OR min(m.created_at) <= ?
             ORDER BY oldest ASC, m.guild_id ASC, m.subject_key ASC LIMIT ?`,
        )
        .all(
          now,
          ...(query.guildId === undefined ? [] : [query.guildId]),
          now,
          query.batchSize,
          query.olderThan.getTime(),
          Math.max(0, Math.floor(query.limit)),
        ) as { guild_id: string; subject_key: string }[];
      return rows.map((r) => ({ guildId: r.guild_id, subjectKey: r.subject_key }));
    });
  }

  /** Compare-and-set: take the key's lease if free, expired or already ours. */
  #takeLease(request: Omit<ClaimRequest, 'limit'>): boolean {
    const now = request.now.getTime();
    return (
      this.#c
        .stmt(
          `INSERT INTO key_leases (guild_id, subject_key, owner, lease_until) VALUES (?, ?, ?, ?)
             ON CONFLICT (guild_id, subject_key) DO UPDATE SET owner = excluded.owner, lease_until = excluded.lease_until
             WHERE key_leases.owner = excluded.owner OR key_leases.lease_until <= ?`,
        )
        .run(request.key.guildId, request.key.subjectKey, request.owner, now + request.leaseMs, now)
        .changes === 1
    );
  }

  override claim(request: ClaimRequest): Promise<ClaimResult> {
    return this.#c.write((): ClaimResult => {
      if (!this.#takeLease(request)) return { messages: [], lockedByOther: true };
      const now = request.now.getTime();
      const rows = this.#c
        .stmt(
          `UPDATE messages SET status = 'claimed', lease_owner = ?, lease_until = ? WHERE row_id IN (
             SELECT row_id FROM messages WHERE guild_id = ? AND subject_key = ? AND ${ELIGIBLE}
               ORDER BY ${CHRONOLOGICAL} LIMIT ?) RETURNING ${messageFields()}`,
        )
        .all(
          request.owner,
          now + request.leaseMs,
          request.key.guildId,
          request.key.subjectKey,
          now,
          Math.max(0, Math.floor(request.limit)),
        ) as MessageRow[];
      // Workers pay for the keyword index in bulk, so enqueue (observe) stays a row insert.
      if (rows.length > 0) this.#m.flushIndex();
      return { messages: rows.map(messageFromRow).sort(chronological), lockedByOther: false };
    });
  }

  override acquireLease(request: Omit<ClaimRequest, 'limit'>): Promise<boolean> {
    return this.#c.write(() => this.#takeLease(request));
  }

  override renewLease(key: BatchKey, owner: string, now: Date, leaseMs: number): Promise<boolean> {
    return this.#c.write(() => {
      const until = now.getTime() + leaseMs;
      const renewed = this.#c
        .stmt('UPDATE key_leases SET lease_until = ? WHERE guild_id = ? AND subject_key = ? AND owner = ?')
        .run(until, key.guildId, key.subjectKey, owner).changes;
      if (renewed === 0) return false;
      this.#c
        .stmt(
          `UPDATE messages SET lease_until = ? WHERE guild_id = ? AND subject_key = ? AND status = 'claimed'
             AND lease_owner = ?`,
        )
        .run(until, key.guildId, key.subjectKey, owner);
      return true;
    });
  }

  override async releaseLease(key: BatchKey, owner: string): Promise<void> {
    await this.#c.run(() =>
      this.#c
        .stmt('DELETE FROM key_leases WHERE guild_id = ? AND subject_key = ? AND owner = ?')
        .run(key.guildId, key.subjectKey, owner),
    );
  }

  override async complete(
    guildId: string,
    messageIds: readonly string[],
    owner: string,
    now: Date,
    options: CompleteOptions = {},
  ): Promise<number> {
    // One local statement: nothing to prepare while the batch's writes are in flight.
    await options.after;
    return this.#c.run(
      () =>
        this.#c
          .stmt(
            `UPDATE messages SET status = 'processed', processed_at = ?, lease_owner = NULL, lease_until = NULL
               WHERE guild_id = ? AND message_id IN (SELECT value FROM json_each(?))
                 AND status = 'claimed' AND lease_owner = ?`,
          )
          .run(now.getTime(), guildId, idList(messageIds), owner).changes,
    );
  }

  override fail(guildId: string, messageIds: readonly string[], request: FailRequest): Promise<FailResult> {
    return this.#c.write((): FailResult => {
      const rows = this.#c
        .stmt(
          `SELECT row_id, attempts FROM messages WHERE guild_id = ? AND message_id IN (SELECT value FROM json_each(?))
             AND status = 'claimed' AND lease_owner = ?`,
        )
        .all(guildId, idList(messageIds), request.owner) as { row_id: number; attempts: number }[];
      const dead = this.#c.stmt(
        "UPDATE messages SET status = 'dead', attempts = ?, lease_owner = NULL, lease_until = NULL WHERE row_id = ?",
      );
      const retry = this.#c.stmt(
        `UPDATE messages SET status = 'pending', attempts = ?, next_attempt_at = ?, lease_owner = NULL,
           lease_until = NULL WHERE row_id = ?`,
      );
      const result = { retrying: 0, dead: 0, attempts: 0 };
      for (const r of rows) {
        const tries = r.attempts + 1;
        result.attempts = Math.max(result.attempts, tries);
        if (tries >= request.maxAttempts) {
          dead.run(tries, r.row_id);
          result.dead++;
        } else {
          retry.run(tries, request.now.getTime() + request.baseBackoffMs * 2 ** (tries - 1), r.row_id);
          result.retrying++;
        }
      }
      return result;
    });
  }

  override releaseExpired(now: Date): Promise<number> {
    return this.#c.write(() => {
      const t = now.getTime();
      const released = this.#c
        .stmt(
          `UPDATE messages SET status = 'pending', lease_owner = NULL, lease_until = NULL
             WHERE status = 'claimed' AND lease_until <= ?`,
        )
        .run(t).changes;
      this.#c.stmt('DELETE FROM key_leases WHERE lease_until <= ?').run(t);
      return released;
    });
  }

  override requeueDead(guildId?: string): Promise<number> {
    return this.#c.run(() => {
      const guild = guildId === undefined ? '' : ' AND guild_id = ?';
      return this.#c
        .stmt(
          `UPDATE messages SET status = 'pending', attempts = 0, next_attempt_at = NULL WHERE status = 'dead'${guild}`,
        )
        .run(...(guildId === undefined ? [] : [guildId])).changes;
    });
  }

  override counts(guildId: string): Promise<QueueCounts> {
    return this.#c.run(() => {
      const c = { pending: 0, claimed: 0, processed: 0, dead: 0 };
      const rows = this.#c.stmt('SELECT status, n FROM message_counts WHERE guild_id = ?').all(guildId) as {
        status: keyof QueueCounts;
        n: number;
      }[];
      for (const r of rows) if (r.status in c) c[r.status] = r.n;
      return c;
    });
  }

  override recent(
    guildId: string,
    options: {
      readonly limit: number;
      readonly after?: { readonly createdAt: Date; readonly messageId: string };
    },
  ): Promise<StoredMessage[]> {
    return this.#c.run(() => {
      const after = options.after;
      const cond = after ? ' AND (created_at > ? OR (created_at = ? AND message_id > ?))' : '';
      const params: (string | number)[] = [guildId];
      if (after) params.push(after.createdAt.getTime(), after.createdAt.getTime(), after.messageId);
      return this.#m
        .select(
          `SELECT ${messageFields()} FROM messages WHERE guild_id = ? AND kind = 'chat' AND raw_stored = 1${cond}
             ORDER BY ${REVERSE_CHRONOLOGICAL} LIMIT ?`,
          [...params, Math.max(0, Math.floor(options.limit))],
        )
        .reverse();
    });
  }
}
