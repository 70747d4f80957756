import type { Logger } from '@permafrost/core';
import { ScopeGate } from '@permafrost/core/store';
import type {
  AnyBulkWriteOperation,
  ClientSession,
  Collection,
  Db,
  Document,
  Filter,
  MongoClient,
} from 'mongodb';
import { eachBounded } from './bounded-each.js';
import { DocGuard } from './doc-guard.js';
import { FactEpochs } from './fact-epochs.js';
import { FactKeep } from './fact-keep.js';
import type { FactDoc } from './mongo-memory-docs.js';
import { type Collections, collections } from './mongo-schema.js';
import { type RawDoc, raw } from './raw-doc.js';
import { type ServerProfile, UNPROBED } from './server-profile.js';
import { SharedReads } from './shared-reads.js';

interface TxScope {
  readonly session: ClientSession | null;
}

const NO_HOOKS = { begin() {}, commit() {}, rollback() {} };
const POINT_READ_CONCURRENCY = 16;
/** Point reads of one `readMany` in flight at once (recall reads its pool of ≤ 1,000 facts so). */
const READ_MANY_CONCURRENCY = 128;
/**
 * Documents per reply of a read that takes every result (`toArray`): the driver's default first
 * batch is 101, so a larger result cost a `getMore`, one more round trip on the request's critical
 * path. The server still caps a reply at 16 MiB.
 */
export const WHOLE_READ_BATCH = 10_000;
/** Collections that stay small (working sets): one `$in` scan beats many point reads on FerretDB. */
const SMALL = new Set([
  'queue_buckets',
  'batch_leases',
  'reply_claims',
  'active_modes',
  'version_tokens',
  'store_meta',
]);

/** Everything the role ports share: collections, the transaction scope, the guard and the profile. */
export class MongoContext {
  readonly client: MongoClient;
  readonly db: Db;
  readonly c: Collections;
  readonly guard: DocGuard;
  readonly logger: Logger | undefined;
  /** Fact epochs (moved by every write through `c.facts`) and the fact documents kept under them. */
  readonly epochs: FactEpochs;
  readonly #keep: FactKeep;
  readonly #gate: ScopeGate<TxScope>;
  readonly #parent: MongoContext | null;
  readonly #options: { logger?: Logger; guardTtlMs: number };
  #profile: ServerProfile = UNPROBED;
  #detached: MongoContext | null = null;
  readonly #reads: SharedReads;

  constructor(
    client: MongoClient,
    db: Db,
    options: { logger?: Logger; guardTtlMs: number },
    parent: MongoContext | null = null,
  ) {
    this.client = client;
    this.db = db;
    const base = parent ? parent.c : collections(db);
    this.guard = new DocGuard(this, base.tokens, options.guardTtlMs, parent?.guard);
    this.epochs =
      parent?.epochs ??
      new FactEpochs(base.storeMeta, {
        logger: options.logger,
        pointReads: () => this.ferretPlan,
        background: this.guard.background,
      });
    this.#keep = parent ? parent.#keep : new FactKeep(this.epochs);
    this.c = parent ? parent.c : { ...base, facts: this.epochs.watch(base.facts) };
    this.logger = options.logger;
    this.#options = options;
    this.#parent = parent;
    this.#gate = parent ? parent.#gate : new ScopeGate<TxScope>();
    this.#reads = parent ? parent.#reads : new SharedReads();
  }

  get profile(): ServerProfile {
    return this.#parent ? this.#parent.profile : this.#profile;
  }

  set profile(profile: ServerProfile) {
    if (this.#parent) this.#parent.profile = profile;
    else this.#profile = profile;
  }

  /** Whether reads follow the `ferretdb` query plan (see `QueryPlan`). */
  get ferretPlan(): boolean {
    return this.profile.queryPlan === 'ferretdb';
  }

  /**
   * The same store outside any session transaction (it still waits for a foreign scope to
   * close). Queue work is coordination between processes: claims, completions and leases take
   * effect on their own, and they rely on duplicate-key errors, which abort a transaction.
   */
  detached(): MongoContext {
    this.#detached ??= this.#parent ? this : new MongoContext(this.client, this.db, this.#options, this);
    return this.#detached;
  }

  /** Waits while another caller's transaction scope is open (in this process). */
  async enter(): Promise<void> {
    const wait = this.#gate.wait();
    if (wait) await wait;
  }

  /**
   * `enter` for a write that never joins a transaction and touches only its own documents (a
   * budget counter): without session transactions another caller's scope is no reason to wait
   * (a batch's budget charge goes out beside its commit's writes, and is awaited before the
   * batch is marked done).
   */
  async enterAlone(): Promise<void> {
    if (this.profile.transactions) await this.enter();
  }

  /** The session of the caller's atomic transaction, if any. */
  session(): ClientSession | undefined {
    if (this.#parent) return undefined;
    return this.#gate.current()?.session ?? undefined;
  }

  /** Driver options carrying the transaction session (never `session: undefined`). */
  opts(): { session?: ClientSession } {
    const session = this.session();
    return session ? { session } : {};
  }

  /** Options of a read that takes every result: the session, and replies of `WHOLE_READ_BATCH`. */
  readOpts(): { session?: ClientSession; batchSize: number } {
    return { batchSize: WHOLE_READ_BATCH, ...this.opts() };
  }

  inScope(): boolean {
    return this.#gate.current() !== undefined;
  }

  /**
   * Atomic servers: a real session transaction (retried by the driver on transient errors),
   * carried to every port call by AsyncLocalStorage. Otherwise fn runs alone in this process,
   * without rollback. Nested calls join the outer scope.
   */
  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#gate.current()) return fn();
    if (!this.profile.transactions) return this.#gate.run(() => ({ session: null }), fn, NO_HOOKS);
    const session = this.client.startSession();
    try {
      return await this.#gate.run(
        () => ({ session }),
        () => session.withTransaction(() => fn()),
        NO_HOOKS,
      );
    } finally {
      await session.endSession();
    }
  }

  /**
   * Documents by `_id`. FerretDB only indexes `{_id: x}`, and scans the whole collection for
   * `$in`, so there it issues point reads (except on the small working-set collections, where
   * one scan is cheaper); elsewhere one `$in` query.
   */
  async readMany<D extends { _id: string }>(
    coll: Collection<D>,
    ids: readonly string[],
  ): Promise<Map<string, D>> {
    const unique = [...new Set(ids)];
    const out = new Map<string, D>();
    if (unique.length === 0) return out;
    const rawColl = raw(coll);
    const session = this.session();
    if (!this.ferretPlan || session || SMALL.has(coll.collectionName)) {
      const filter: Filter<RawDoc> =
        unique.length === 1 ? { _id: unique[0] as string } : { _id: { $in: unique } };
      for (const doc of await rawColl.find(filter, this.readOpts()).toArray())
        out.set(doc._id, doc as unknown as D);
      return out;
    }
    // In one wave: a pool read is on a request's critical path, every extra wave a round trip.
    await this.each(
      unique,
      async (id) => {
        const doc = await rawColl.findOne({ _id: id });
        if (doc) out.set(id, doc as unknown as D);
      },
      READ_MANY_CONCURRENCY,
    );
    return out;
  }

  /**
   * A guild's fact documents by `_id` (`readMany`), served from the documents kept under the
   * guild's fact epoch where it has not moved (`FactKeep`); inside a transaction, a plain read.
   */
  readFacts(guildId: string, keys: readonly string[]): Promise<Map<string, FactDoc>> {
    if (this.session()) return this.readMany(this.c.facts, keys);
    return this.#keep.read(guildId, keys, (missing) => this.readMany(this.c.facts, missing));
  }

  /**
   * Replaces (or inserts) the document at `_id`. Two processes upserting a new `_id` at once can
   * get a duplicate-key error (the other insert won); the retry then replaces it.
   */
  async upsert<D extends { _id: string }>(coll: Collection<D>, id: string, doc: Document): Promise<void> {
    this.wrote(coll.collectionName);
    const rawColl = raw(coll);
    try {
      await rawColl.replaceOne({ _id: id }, doc, { upsert: true, ...this.opts() });
    } catch (error) {
      if (this.session() || (error as { code?: unknown }).code !== 11000) throw error;
      await rawColl.replaceOne({ _id: id }, doc, { upsert: true });
    }
  }

  /** An idempotent bulk of upserts, re-run once when racing inserts made some fail with E11000. */
  async bulkUpsert<D extends { _id: string }>(
    coll: Collection<D>,
    ops: AnyBulkWriteOperation<RawDoc>[],
  ): Promise<void> {
    if (ops.length === 0) return;
    this.wrote(coll.collectionName);
    const rawColl = raw(coll);
    try {
      await rawColl.bulkWrite(ops, { ordered: false, ...this.opts() });
    } catch (error) {
      const errors = (error as { writeErrors?: unknown }).writeErrors;
      const list = (Array.isArray(errors) ? errors : [errors]) as { code?: unknown }[];
      if (this.session() || errors === undefined || !list.every((e) => e?.code === 11000)) throw error;
      await rawColl.bulkWrite(ops, { ordered: false });
    }
  }

  /** Deletes documents by `_id` (point deletes on FerretDB for small sets); returns the count. */
  async deleteIds<D extends { _id: string }>(coll: Collection<D>, ids: readonly string[]): Promise<number> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return 0;
    this.wrote(coll.collectionName);
    const rawColl = raw(coll);
    if (this.ferretPlan && !this.session() && unique.length <= 8) {
      const counts = await this.each(
        unique,
        async (id) => (await rawColl.deleteOne({ _id: id })).deletedCount,
      );
      return counts.reduce((a, b) => a + b, 0);
    }
    return (await rawColl.deleteMany({ _id: { $in: unique } }, this.opts())).deletedCount;
  }

  /**
   * Single-flight for identical reads of a collection: a caller asking while the same read is in
   * flight, and this process has not written to the collection since it started, shares its
   * result. Outside transactions.
   */
  shared<T>(collection: string, key: string, read: () => Promise<T>): Promise<T> {
    if (this.session()) return read();
    return this.#reads.shared(collection, key, read);
  }

  /**
   * `shared`, and the result is also kept for `ttlMs` while this process does not write to the
   * collection: for aggregates that only tune ranking (corpus size), where another process's
   * writes may show up `ttlMs` late. Outside transactions; at most 256 entries.
   */
  recent<T>(collection: string, key: string, ttlMs: number, read: () => Promise<T>): Promise<T> {
    if (this.session()) return read();
    return this.#reads.recent(collection, key, ttlMs, read);
  }

  /** `SharedReads.lagging` outside transactions; inside one, a plain read. */
  lagging<T>(collection: string, key: string, ttlMs: number, read: () => Promise<T>): Promise<T> {
    if (this.session()) return read();
    return this.#reads.lagging(collection, key, ttlMs, read);
  }

  /** Drops a result kept by `recent` (see `SharedReads.forget`). */
  forget(collection: string, key: string): void {
    this.#reads.forget(collection, key);
  }

  /** Records a write by this process to a collection (see `shared`). */
  wrote(collection: string): void {
    this.#reads.wrote(collection);
  }

  /** Independent reads: concurrently, or one after the other inside a session transaction. */
  async all<T extends unknown[]>(...thunks: { [K in keyof T]: () => Promise<T[K]> }): Promise<T> {
    if (!this.session()) return (await Promise.all(thunks.map((t) => t()))) as T;
    const out: unknown[] = [];
    for (const t of thunks) out.push(await t());
    return out as T;
  }

  /**
   * Runs fn over items with bounded concurrency (one at a time inside a session transaction).
   * `limit` defaults to POINT_READ_CONCURRENCY.
   */
  async each<T, R>(
    items: readonly T[],
    fn: (item: T, index: number) => Promise<R>,
    limit = POINT_READ_CONCURRENCY,
  ): Promise<R[]> {
    if (!this.session()) return eachBounded(items, fn, limit);
    const results = new Array<R>(items.length);
    for (let i = 0; i < items.length; i++) results[i] = await fn(items[i] as T, i);
    return results;
  }
}
