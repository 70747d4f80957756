import type { FactEpochs } from './fact-epochs.js';
import type { FactDoc } from './mongo-memory-docs.js';

/** Fact documents kept across every guild of one store object; past it the least recently read guilds go. */
export const KEPT_FACT_DOCS = 10_000;
/**
 * How long a guild's kept documents are served, from the epoch read they were first kept under.
 * Only a writer that died between its write and its new epoch token leaves an epoch that does not
 * move; this bounds how long another process may serve what such a write changed.
 */
export const KEPT_FACTS_MS = 60_000;

interface Entry {
  /** The guild's epoch token (`FactEpochs.read`) the documents are up to. */
  readonly token: string;
  readonly since: number;
  readonly docs: Map<string, FactDoc>;
}

/** Reads fact documents by `_id` for one guild (the store's point reads or `$in`). */
export type ReadFacts = (keys: readonly string[]) => Promise<Map<string, FactDoc>>;

/**
 * Fact documents kept between reads by id. A ranked read (promptContext, recall, a graph walk's
 * validity checks) reads the same hundred or so facts again and again; on FerretDB each is a point
 * read of about 2 ms of server time. A guild's kept documents are served only after a read of its
 * fact epoch (`FactEpochs`), sent together with the reads of the ids not kept, finds the token they
 * were kept under: any change or removal of a fact by any process since then has replaced it. A
 * document is kept only when it was read after that token was read, so it is at least as new as
 * the token. When the token moved, the guild's documents are dropped and the ids asked for read
 * again. While this process writes a guild's facts, and inside a transaction, nothing is kept or
 * served. Kept documents are frozen: callers share them.
 */
export class FactKeep {
  readonly #epochs: FactEpochs;
  readonly #capacity: number;
  readonly #now: () => number;
  /** In least recently read order (a Map keeps insertion order; a read re-inserts its guild). */
  readonly #guilds = new Map<string, Entry>();
  #size = 0;

  constructor(epochs: FactEpochs, capacity = KEPT_FACT_DOCS, now: () => number = Date.now) {
    this.#epochs = epochs;
    this.#capacity = capacity;
    this.#now = now;
    epochs.onWrite((guildId) => {
      if (guildId === null) for (const g of [...this.#guilds.keys()]) this.#drop(g);
      else this.#drop(guildId);
    });
  }

  /** Documents kept, across guilds. */
  get size(): number {
    return this.#size;
  }

  /** The documents at `keys` (all of `guildId`); absent keys are missing from the map. */
  async read(guildId: string, keys: readonly string[], readFacts: ReadFacts): Promise<Map<string, FactDoc>> {
    if (keys.length === 0) return new Map();
    if (this.#epochs.writing(guildId)) return readFacts(keys);
    let entry = this.#guilds.get(guildId);
    if (entry && this.#now() - entry.since > KEPT_FACTS_MS) {
      this.#drop(guildId);
      entry = undefined;
    }
    const hits: string[] = [];
    const misses: string[] = [];
    for (const k of new Set(keys)) (entry?.docs.has(k) ? hits : misses).push(k);
    const [token, found] = await Promise.all([
      this.#epochs.read(guildId),
      misses.length > 0 ? readFacts(misses) : Promise.resolve(new Map<string, FactDoc>()),
    ]);
    const out = new Map<string, FactDoc>();
    if (entry && token === entry.token && this.#guilds.get(guildId) === entry) {
      for (const k of hits) out.set(k, entry.docs.get(k) as FactDoc);
      for (const [k, d] of found) out.set(k, this.#keep(guildId, entry, k, d));
      this.#guilds.delete(guildId);
      this.#guilds.set(guildId, entry);
      return out;
    }
    // Nothing kept, or the epoch moved: keep from this token on (unless this process is writing
    // the guild's facts). The documents read beside it may be older than it, so they are served,
    // not kept; the ids that were kept are read again.
    for (const [k, d] of found) out.set(k, d);
    this.#drop(guildId);
    const fresh: Entry = { token, since: this.#now(), docs: new Map() };
    if (!this.#epochs.writing(guildId)) this.#guilds.set(guildId, fresh);
    if (hits.length > 0)
      for (const [k, d] of await readFacts(hits)) out.set(k, this.#keep(guildId, fresh, k, d));
    return out;
  }

  /** Keeps a document read after `entry.token` was (unless the guild moved on or space ran out). */
  #keep(guildId: string, entry: Entry, key: string, doc: FactDoc): FactDoc {
    if (this.#guilds.get(guildId) !== entry || this.#epochs.writing(guildId)) return doc;
    const frozen = Object.freeze(doc);
    if (!entry.docs.has(key)) {
      if (entry.docs.size >= this.#capacity) return frozen;
      this.#size++;
      this.#evictFor(guildId);
    }
    entry.docs.set(key, frozen);
    return frozen;
  }

  /** Drops the least recently read other guilds while the keep is over capacity. */
  #evictFor(guildId: string): void {
    for (const g of this.#guilds.keys()) {
      if (this.#size <= this.#capacity) return;
      if (g !== guildId) this.#drop(g);
    }
  }

  #drop(guildId: string): void {
    const entry = this.#guilds.get(guildId);
    if (!entry) return;
    this.#size -= entry.docs.size;
    this.#guilds.delete(guildId);
  }
}
