import { ErrorCode, type Logger, MemoryError } from '@permafrost/core';
import type { Collection } from 'mongodb';
import { BackgroundWrites } from './background-writes.js';
import { type Change, DELETE, type GuardedDoc, type GuardOptions, type Outcome } from './guard-types.js';
import { mutateInTransaction, stampVersion, writeHeld } from './guarded-writes.js';
import { insertTolerant } from './insert-tolerant.js';
import { KeyedLocks, sleep } from './keyed-locks.js';
import type { RawDoc } from './raw-doc.js';
import { type TokenDoc, VersionTokens } from './version-tokens.js';
import { WrittenVersions } from './written-versions.js';

interface GuardHost {
  readonly logger: Logger | undefined;
  wrote(collection: string): void;
  session(): unknown;
  opts(): object;
  readMany<D extends { _id: string }>(coll: Collection<D>, ids: readonly string[]): Promise<Map<string, D>>;
}

const BUSY_MARGIN_MS = 30_000;

/**
 * Documents per guarded round (read, tokens, one bulk write). On FerretDB v1.24 over PostgreSQL a
 * round over about a hundred documents made the server stop answering every client (PostgreSQL
 * idle; only a restart helped): a purge of a member quoted in 150 facts did, as did a migration
 * writing 100 alias documents at once; 16 or 20 never did. Larger writes go in several rounds.
 */
const WRITE_CHUNK = 16;
/**
 * Linearizable read-modify-write of documents on servers whose updates are not atomic.
 *
 * FerretDB applies every update by reading the document, changing it in Go and writing the
 * whole document back, so two concurrent conditional updates can both "win". Inserting a
 * document with a given `_id` IS atomic everywhere. Every guarded document therefore carries a
 * version stamp `ep` (fresh for each version), and a writer must first insert the version token
 * `<collection>|<_id>|<ep>|1`: of all writers that read that version, exactly one gets to change
 * it. The winner writes it with a new `ep`, filtered on the version it holds (a token can outlive
 * its version when the previous holder finished and deleted it: that write then matches nothing),
 * and deletes the token (sent at once, not waited for: the version it names is gone; the store's
 * close waits for the deletes in flight).
 *
 * A writer that crashes while holding a token leaves it behind; once it is older than the TTL,
 * contenders escalate to `|2`, `|3`, … (again by insert, so again exactly one wins). Tokens left
 * after a completed write name a dead version and are swept at setup. Unguarded deletes (purge,
 * prune) may remove a document at any time; a guarded write to it then matches nothing.
 *
 * Inside a session transaction (real MongoDB) a compare-and-set on `{_id, ep}` is used instead:
 * the server's write-conflict detection serialises writers and aborts the transaction on a race.
 */
export class DocGuard {
  readonly #host: GuardHost;
  readonly #tokens: VersionTokens;
  readonly #ttlMs: number;
  /** In-process locks per document (shared by every guard of one store). */
  readonly locks: KeyedLocks;

  /** Writes sent in the background, token deletes among them (shared by every guard of one store). */
  readonly background: BackgroundWrites;

  /** Versions this store wrote, for `GuardOptions.reuseWritten` (shared by every guard of one store). */
  readonly written: WrittenVersions;

  constructor(host: GuardHost, tokens: Collection<TokenDoc>, ttlMs: number, parent?: DocGuard) {
    this.#host = host;
    this.background = parent?.background ?? new BackgroundWrites();
    this.written = parent?.written ?? new WrittenVersions();
    this.#tokens = new VersionTokens(host, tokens, ttlMs, this.background);
    this.#ttlMs = ttlMs;
    this.locks = parent?.locks ?? new KeyedLocks();
  }

  /** How long a version token may be held before contenders take it for a crashed holder's. */
  get ttlMs(): number {
    return this.#ttlMs;
  }

  /** Resolves once every background write sent so far has been answered (the store awaits it on close). */
  settled(): Promise<void> {
    return this.background.settled();
  }

  async mutate<D extends GuardedDoc>(
    coll: Collection<D>,
    id: string,
    change: (current: D | null) => Change<D>,
    options: GuardOptions<D> = {},
  ): Promise<Outcome<D>> {
    const out = await this.mutateMany(coll, [id], (current) => change(current), options);
    return out.get(id) as Outcome<D>;
  }

  /** Applies `change` to each document (it may be called again after a lost race: keep it pure). */
  async mutateMany<D extends GuardedDoc>(
    coll: Collection<D>,
    ids: readonly string[],
    change: (current: D | null, id: string) => Change<D>,
    options: GuardOptions<D> = {},
  ): Promise<Map<string, Outcome<D>>> {
    const unique = [...new Set(ids)];
    const out = new Map<string, Outcome<D>>();
    if (unique.length === 0) return out;
    this.#host.wrote(coll.collectionName);
    if (this.#host.session()) {
      for (const id of unique)
        out.set(id, await mutateInTransaction(coll, id, change, options, this.#host.opts()));
      return out;
    }
    const release = await this.locks.acquire(unique.map((id) => `${coll.collectionName}\u0000${id}`));
    try {
      for (let i = 0; i < unique.length; i += WRITE_CHUNK) {
        let first = true;
        await this.#untilDone(unique.slice(i, i + WRITE_CHUNK), 'a document', async (todo) => {
          const reuse = first && options.reuseWritten === true;
          const known = first ? options.known : undefined;
          first = false;
          const retry = await this.#round(coll, todo, change, options, out, reuse, known);
          // A document that needs another round is read again, now and by the next call.
          for (const id of retry) this.written.forget(coll.collectionName, id);
          return retry;
        });
      }
    } finally {
      release();
    }
    return out;
  }

  /**
   * Runs fn while holding `keys` of `name` (names of rows that may not exist yet, such as "the
   * active fact with this text"): one writer per key at a time, in every process. Outside a
   * transaction by token insert (as for versions, with the same expiry for a crashed holder),
   * released afterwards; inside one by an upsert of each key's token, which makes a concurrent
   * transaction touching the same key conflict and retry.
   */
  async withKeys<T>(name: string, keys: readonly string[], fn: () => Promise<T>): Promise<T> {
    const unique = [...new Set(keys)];
    if (unique.length === 0) return fn();
    const session = this.#host.session();
    if (session) {
      const at = new Date();
      for (const k of unique)
        await this.#tokens.collection.updateOne(
          { _id: `${name}|${k}` },
          { $set: { at } },
          { upsert: true, ...this.#host.opts() },
        );
      return fn();
    }
    const release = await this.locks.acquire(unique.map((k) => `${name}\u0000${k}`));
    const heldIds: string[] = [];
    try {
      await this.#untilDone(unique, `a ${name} key`, async (todo) => {
        const held = await this.#tokens.acquire(
          name,
          todo.map((id) => ({ id, ep: 'key' })),
        );
        for (const ids of held.values()) heldIds.push(...ids);
        return todo.filter((k) => !held.has(k));
      });
      return await fn();
    } finally {
      // This process's next holder of a key waits for the delete (it would lose the insert before
      // it); the caller does not.
      if (heldIds.length > 0) this.#tokens.releaseSoon(heldIds, release);
      else release();
    }
  }

  /**
   * Runs `round` on what is left until nothing is, backing off between rounds; past the token TTL
   * (plus a margin) what another writer still holds fails with STORE_BUSY.
   */
  async #untilDone(
    items: readonly string[],
    what: string,
    round: (todo: readonly string[]) => Promise<readonly string[]>,
  ): Promise<void> {
    let todo = items;
    const deadline = Date.now() + this.#ttlMs + BUSY_MARGIN_MS;
    for (let n = 0; todo.length > 0; n++) {
      if (n > 0) {
        if (Date.now() > deadline)
          throw new MemoryError(ErrorCode.STORE_BUSY, `${what} stayed locked by another writer`);
        await sleep(Math.min(2 ** n, 50) + Math.random() * 5);
      }
      todo = await round(todo);
    }
  }

  /** Deletes tokens older than `ageMs` (left by crashed writers, or naming dead versions). */
  sweep(ageMs: number): Promise<number> {
    return this.#tokens.sweep(ageMs);
  }

  async #round<D extends GuardedDoc>(
    coll: Collection<D>,
    ids: readonly string[],
    change: (current: D | null, id: string) => Change<D>,
    options: GuardOptions<D>,
    out: Map<string, Outcome<D>>,
    reuse: boolean,
    known: ReadonlyMap<string, D | null> | undefined,
  ): Promise<string[]> {
    const remembered = reuse ? this.written.get<D>(coll.collectionName, ids) : new Map<string, D>();
    const absent = new Set<string>();
    const fresh = new Set<string>();
    for (const id of ids) {
      if (remembered.has(id) || !known?.has(id)) continue;
      const doc = known.get(id);
      if (doc) remembered.set(id, doc);
      else absent.add(id);
      if (options.knownIsFresh) fresh.add(id);
    }
    const unread = ids.filter((id) => !remembered.has(id) && !absent.has(id));
    const current = unread.length > 0 ? await this.#host.readMany(coll, unread) : new Map<string, D>();
    for (const [id, doc] of remembered) current.set(id, doc);
    const inserts: D[] = [];
    const writes: { id: string; before: D; after: D | typeof DELETE }[] = [];
    const retry: string[] = [];
    for (const id of ids) {
      const before = current.get(id) ?? null;
      const next = change(before, id);
      // "Nothing to change" decided on a remembered version is checked on a fresh read (no
      // write would reveal that the version was stale).
      if (next === null && (remembered.has(id) || absent.has(id)) && !fresh.has(id)) retry.push(id);
      else if (next === null || (before === null && next === DELETE)) {
        out.set(id, { before, after: before, changed: false });
      } else if (before === null) {
        inserts.push(stampVersion(next as D, id));
      } else {
        writes.push({ id, before, after: next === DELETE ? DELETE : stampVersion(next, id) });
      }
    }
    if (inserts.length > 0) {
      const lost = await insertTolerant(coll as unknown as Collection<RawDoc>, inserts);
      inserts.forEach((doc, i) => {
        if (lost.has(i)) retry.push(doc._id);
        else {
          out.set(doc._id, { before: null, after: doc, changed: true });
          if (options.reuseWritten) this.written.remember(coll.collectionName, doc);
        }
      });
    }
    if (writes.length === 0) return retry;
    const held = await this.#tokens.acquire(
      coll.collectionName,
      writes.map((w) => ({ id: w.id, ep: w.before.ep })),
    );
    try {
      // A token may name a version that another writer finished (and freed) meanwhile: only
      // documents still at the version we hold are ours to write. The write's filter checks that
      // (see writeHeld); only a `beforeWrite`, which must see the held version, needs a re-read first.
      const won = writes.filter((w) => held.has(w.id));
      let mine = won;
      if (options.beforeWrite && won.length > 0) {
        const now = await this.#host.readMany(
          coll,
          won.map((w) => w.id),
        );
        mine = won.filter((w) => now.get(w.id)?.ep === w.before.ep);
      }
      const ours = new Set(mine);
      for (const w of writes) if (!ours.has(w)) retry.push(w.id);
      if (mine.length === 0) return retry;
      if (options.beforeWrite) for (const w of mine) await options.beforeWrite(w.before, w.after);
      for (const w of await writeHeld(coll, mine, (c, ids) => this.#host.readMany(c, ids))) {
        if (w.landed) {
          out.set(w.id, { before: w.before, after: w.after, changed: true });
          // The stored document: the fields the change did not name are still there.
          if (options.reuseWritten && w.after)
            this.written.remember(coll.collectionName, { ...w.before, ...w.after });
          else this.written.forget(coll.collectionName, w.id);
        } else retry.push(w.id);
      }
    } finally {
      // Every token written here names a version that is gone once the write landed; if it did
      // not, contenders (and this process's own retry) back off until the delete arrives.
      const ids = [...held.values()].flat();
      if (ids.length > 0) this.#tokens.releaseSoon(ids);
    }
    return retry;
  }
}
