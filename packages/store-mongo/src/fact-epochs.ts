import { randomUUID } from 'node:crypto';
import type { Logger } from '@permafrost/core';
import type { ClientSession, Collection, Document } from 'mongodb';
import type { BackgroundWrites } from './background-writes.js';
import type { StoreMetaDoc } from './mongo-governance-docs.js';
import { docKey } from './mongo-keys.js';
import { WRITE_METHODS } from './nul-free.js';

/** `store_meta` key of a guild's fact epoch, and (null) of the epoch of writes whose guild is unknown. */
export const epochKey = (guildId: string | null): string => `fact-epoch|${docKey(guildId)}`;

/** Writes that only add documents: nothing kept can be their old version. */
const ADDING = new Set(['insertOne', 'insertMany']);
/** Writes that remove documents: their epoch moves before the write is reported done. */
const REMOVING = new Set(['deleteOne', 'deleteMany', 'findOneAndDelete']);

/** The guild of a document `_id` built by `docKey(guildId, …)`, or null. */
export function guildOfKey(key: unknown): string | null {
  if (typeof key !== 'string') return null;
  const colon = key.indexOf(':');
  if (colon <= 0) return null;
  const n = Number(key.slice(0, colon));
  if (!Number.isInteger(n) || n < 0 || key[colon + 1 + n] !== '|') return null;
  return key.slice(colon + 1, colon + 1 + n);
}

/** Strings of a filter value: a string, `{ $eq }` or `{ $in }`; null when it is anything else. */
function valuesOf(v: unknown): unknown[] | null {
  if (typeof v === 'string') return [v];
  if (typeof v !== 'object' || v === null) return null;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  if (keys.length !== 1) return null;
  if (keys[0] === '$eq') return [o['$eq']];
  if (keys[0] === '$in' && Array.isArray(o['$in'])) return o['$in'];
  return null;
}

/**
 * The guilds a filter (or a document) can touch: from `guildId`, else from the `_id`s; null when
 * neither says (the write then moves every guild's epoch).
 */
export function guildsOf(target: unknown): string[] | null {
  if (typeof target !== 'object' || target === null) return null;
  const t = target as Record<string, unknown>;
  const byGuild = valuesOf(t['guildId']);
  if (byGuild?.every((g) => typeof g === 'string')) return byGuild as string[];
  const ids = valuesOf(t['_id']);
  if (!ids) return null;
  const guilds = ids.map(guildOfKey);
  return guilds.every((g) => g !== null) ? (guilds as string[]) : null;
}

/** The guilds of a write's first argument: a filter, or bulk operations (their filters or documents). */
function guildsOfWrite(method: string, arg: unknown): string[] | null {
  if (method !== 'bulkWrite') return guildsOf(arg);
  if (!Array.isArray(arg)) return null;
  const out: string[] = [];
  for (const item of arg) {
    const op = Object.values(item as Record<string, { filter?: unknown; document?: unknown }>)[0];
    const g = guildsOf(op?.filter ?? op?.document);
    if (!g) return null;
    out.push(...g);
  }
  return out;
}

/** Whether a bulk write only inserts. */
function onlyInserts(arg: unknown): boolean {
  return Array.isArray(arg) && arg.every((op) => Object.keys(op as object)[0] === 'insertOne');
}

/** Whether a bulk write removes documents. */
function removes(arg: unknown): boolean {
  return Array.isArray(arg) && arg.some((op) => REMOVING.has(Object.keys(op as object)[0] ?? ''));
}

/**
 * Every guild's fact epoch: a random token in `store_meta` that is replaced after each write that
 * changes or removes fact documents, by any process, so a process keeping decoded facts
 * (`FactKeep`) can tell with one point read whether any of them may have changed. A token, not a
 * counter: a write replaces it blindly (FerretDB's `$inc` is a read-modify-write, where two
 * writers could leave a value a reader has already seen). The new token is written once the write
 * was answered; a reader reads the token before the documents it vouches for. Writes that only
 * insert leave the epoch (nothing kept can be an older version of a new document).
 */
export class FactEpochs {
  readonly #meta: Collection<StoreMetaDoc>;
  readonly #logger: Logger | undefined;
  readonly #pointReads: () => boolean;
  readonly #background: BackgroundWrites;
  /** Per guild (null: unknown guild), writes of this process whose new token is not written yet. */
  readonly #writing = new Map<string | null, number>();
  /** Called when this process starts a write of a guild's facts (null: every guild). */
  readonly #listeners: ((guildId: string | null) => void)[] = [];

  /**
   * `pointReads`: whether the server is read by `_id` one document at a time (see `read`);
   * `background`: where token writes that nobody waits for are tracked (the store's, which
   * `close()` waits for).
   */
  constructor(
    meta: Collection<StoreMetaDoc>,
    options: {
      readonly logger: Logger | undefined;
      readonly pointReads: () => boolean;
      readonly background: BackgroundWrites;
    },
  ) {
    this.#meta = meta;
    this.#logger = options.logger;
    this.#pointReads = options.pointReads;
    this.#background = options.background;
  }

  /** Registers a listener for this process's fact writes (at their start and once their token is written). */
  onWrite(listener: (guildId: string | null) => void): void {
    this.#listeners.push(listener);
  }

  /** Whether this process is writing a guild's facts (or facts of an unknown guild). */
  writing(guildId: string): boolean {
    return (this.#writing.get(guildId) ?? 0) > 0 || (this.#writing.get(null) ?? 0) > 0;
  }

  /**
   * The guild's epoch and the unknown-guild epoch, read together ('' for one never written): two
   * point reads where `$in` is not served from the `_id` index (FerretDB v1 scans for it, and
   * `store_meta` holds an epoch per guild), one `$in` query elsewhere.
   */
  async read(guildId: string): Promise<string> {
    const keys = [epochKey(guildId), epochKey(null)] as const;
    const docs = this.#pointReads()
      ? await Promise.all(keys.map((_id) => this.#meta.findOne({ _id })))
      : await this.#meta.find({ _id: { $in: [...keys] } }).toArray();
    const value = (key: string) => docs.find((d) => d?._id === key)?.value ?? '';
    return `${value(keys[0])}/${value(keys[1])}`;
  }

  /** A view of the facts collection whose writes move the epochs of the guilds they touch. */
  watch<D extends Document>(coll: Collection<D>): Collection<D> {
    return new Proxy(coll, {
      get: (target, prop, receiver) => {
        const member = Reflect.get(target, prop, receiver) as unknown;
        if (typeof prop !== 'string' || typeof member !== 'function') return member;
        const options = WRITE_METHODS[prop];
        if (options === undefined) return member;
        const fn = member as (...args: unknown[]) => Promise<unknown>;
        return (...args: unknown[]) => {
          const arg = args[0];
          if (ADDING.has(prop) || (prop === 'bulkWrite' && onlyInserts(arg))) return fn.apply(target, args);
          const session = (args[options] as { session?: ClientSession } | undefined)?.session;
          const awaitToken = REMOVING.has(prop) || (prop === 'bulkWrite' && removes(arg));
          return this.#around(guildsOfWrite(prop, arg), session, awaitToken, () => fn.apply(target, args));
        };
      },
    });
  }

  async #around<T>(
    guilds: string[] | null,
    session: ClientSession | undefined,
    awaitToken: boolean,
    write: () => Promise<T>,
  ): Promise<T> {
    const keys: (string | null)[] = guilds ? [...new Set(guilds)] : [null];
    for (const k of keys) this.#writing.set(k, (this.#writing.get(k) ?? 0) + 1);
    this.#notify(keys);
    try {
      return await write();
    } finally {
      // Inside a transaction the token commits with the write; otherwise a removal waits for it
      // (an erasure is not reported done while another process may still serve what it removed),
      // a change sends it in the background (this process already reads around the change).
      const done = this.#renew(keys, session).finally(() => {
        for (const k of keys) this.#writing.set(k, (this.#writing.get(k) ?? 1) - 1);
        this.#notify(keys);
      });
      if (session || awaitToken) await done;
      else
        this.#background.add(done, (error) =>
          this.#logger?.({ level: 'warn', event: 'store.mongo.fact_epoch_failed', error }),
        );
    }
  }

  async #renew(keys: readonly (string | null)[], session: ClientSession | undefined): Promise<void> {
    await Promise.all(
      keys.map(async (k) => {
        const filter = { _id: epochKey(k) };
        const update = { $set: { value: randomUUID() } };
        try {
          await this.#meta.updateOne(filter, update, { upsert: true, ...(session ? { session } : {}) });
        } catch (error) {
          // Two processes creating the same epoch document: the other insert won; replace it.
          if (session || (error as { code?: unknown }).code !== 11000) throw error;
          await this.#meta.updateOne(filter, update);
        }
      }),
    );
  }

  #notify(keys: readonly (string | null)[]): void {
    for (const k of keys) for (const l of this.#listeners) l(k);
  }
}
