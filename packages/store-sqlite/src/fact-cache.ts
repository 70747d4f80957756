import type { Fact, Link } from '@permafrost/core';
import type { SqliteConnection } from './connection.js';

/**
 * Bytes of decoded facts and links kept across every guild of one store object; past this the
 * least recently read guilds go. Only guilds whose facts fit in it with room for their links are
 * kept at all (`KEPT_GUILD_FACTS`): a bigger guild's reads would only churn through it, and every
 * byte kept costs the process two to four in RSS once V8 sizes its heap to it (measured: 8 MB of
 * facts kept from a 100k-fact guild grew RSS by 25-40 MiB and answered no faster).
 */
export const FACT_CACHE_BYTES = 24 * 1024 * 1024;
/** Heap held by one decoded fact and by one link, as measured on the bench's guilds. */
const FACT_BYTES = 1600;
const LINK_BYTES = 200;
/** Fact rows (any validity) a guild may hold to be kept: four fifths of the bytes for facts. */
const KEPT_GUILD_FACTS = (capacity: number) => Math.floor((capacity * 0.8) / FACT_BYTES);
/**
 * A guild's fact rows logged after one `fact_changes` entry up to another, through the index that
 * serves it whatever the planner statistics say (migration 012).
 */
export const FACT_CHANGES_SINCE = `SELECT row_id FROM fact_changes INDEXED BY fact_changes_guild
  WHERE guild_id = ? AND seq > ? AND seq <= ?`;
/**
 * Epoch moves between two counts of a guild's fact rows (a count reads up to KEPT_GUILD_FACTS
 * index entries, about a millisecond at 10k; a guild grows by a few facts per move).
 */
const RECOUNT_EVERY_EPOCHS = 256;

/**
 * One guild's decoded facts at one value of its fact epoch. Readers collect their results in maps
 * of their own: what is kept is a shortcut, and `add` may decline to keep (capacity, a write).
 */
export interface GuildFacts {
  readonly byRow: ReadonlyMap<number, Fact>;
  readonly byId: ReadonlyMap<string, Fact>;
  /** A node's links by read key (node, validity, limit). */
  readonly links: ReadonlyMap<string, readonly Link[]>;
  /** Keeps a fact read after `guild()` returned this (unless the read may still roll back). */
  add(rowId: number, fact: Fact): void;
  /** Keeps a node's links read after `guild()` returned this, under their read key. */
  addLinks(key: string, links: readonly Link[]): void;
}

interface Entry {
  /** The guild's fact epoch, and the last `fact_changes` entry, that the kept values are up to. */
  epoch: number;
  seq: number;
  readonly byRow: Map<number, Fact>;
  readonly byId: Map<string, Fact>;
  readonly links: Map<string, readonly Link[]>;
  /** Estimated heap held (FACT_BYTES, LINK_BYTES). */
  bytes: number;
  /** Too big to keep (or filled the capacity alone): keeps what it holds, takes nothing more. */
  full: boolean;
}

/**
 * Decoded facts and node links kept between reads. Ranked reads (promptContext, recall) decode
 * the same hundred or so facts and links again and again, and decoding costs more than ranking.
 * Each guild's are up to one value of its fact epoch (migration 010), which moves with every
 * update and delete of the guild's facts and links (triggers, from any connection, in the same
 * transaction) and every batch of new links (`bumpFactEpoch`). When it has moved, the fact rows
 * logged in `fact_changes` since then and every link list are dropped before anything is served,
 * so a fact or link list that was changed, retired, erased or deleted never is (a new fact has an
 * id and a row id that no kept fact has). The epoch is read before the rows it vouches for, so
 * they are at least as new as it. Nothing read inside a write transaction is kept (it could still
 * roll back, and the log with it). Kept values are frozen: callers share them.
 */
export class FactCache {
  readonly #c: SqliteConnection;
  readonly #capacity: number;
  readonly #guilds = new Map<string, Entry>();
  /** Per guild: whether its fact rows fit, and the epoch when they were counted. */
  readonly #fits = new Map<string, { readonly fits: boolean; readonly epoch: number }>();
  #bytes = 0;

  constructor(connection: SqliteConnection, capacity = FACT_CACHE_BYTES) {
    this.#c = connection;
    this.#capacity = capacity;
    // What this store changed (a purge, a forgotten message) leaves memory at its commit, not at
    // the guild's next read.
    connection.onCommitted(() => this.#dropStale());
  }

  /** Estimated heap held by kept facts and links. */
  get bytes(): number {
    return this.#bytes;
  }

  #epoch(guildId: string): number {
    const row = this.#c.stmt('SELECT epoch FROM fact_epochs WHERE guild_id = ?').get(guildId) as
      | { epoch: number }
      | undefined;
    return row?.epoch ?? 0;
  }

  /** Whether the guild's fact rows fit in the capacity (counted again every RECOUNT_EVERY_EPOCHS). */
  #guildFits(guildId: string, epoch: number): boolean {
    const known = this.#fits.get(guildId);
    if (known && epoch - known.epoch < RECOUNT_EVERY_EPOCHS) return known.fits;
    const limit = KEPT_GUILD_FACTS(this.#capacity);
    const rows = this.#c
      .stmt('SELECT count(*) AS n FROM (SELECT 1 FROM facts WHERE guild_id = ? LIMIT ?)')
      .get(guildId, limit + 1) as { n: number };
    const fits = rows.n <= limit;
    this.#fits.set(guildId, { fits, epoch });
    return fits;
  }

  /**
   * The guild's kept facts, valid now. Read the missing ones after this call: they are then at
   * least as new as the epoch they are kept under (a later move of it drops them).
   */
  guild(guildId: string): GuildFacts {
    if (this.#c.writing) return UNKEPT;
    const epoch = this.#epoch(guildId);
    let entry = this.#guilds.get(guildId);
    if (entry) {
      this.#drop(guildId, entry);
      if (entry.epoch !== epoch && !this.#catchUp(guildId, entry, epoch)) entry = undefined;
    }
    if (!entry) {
      const full = !this.#guildFits(guildId, epoch);
      const seq = this.#lastChange();
      entry = { epoch, seq, byRow: new Map(), byId: new Map(), links: new Map(), bytes: 0, full };
    }
    this.#guilds.set(guildId, entry); // most recently used last
    this.#bytes += entry.bytes;
    const kept = entry;
    const grow = (bytes: number) => {
      kept.bytes += bytes;
      if (this.#guilds.get(guildId) !== kept) return;
      this.#bytes += bytes;
      if (this.#bytes > this.#capacity) this.#evict(kept);
    };
    return {
      byRow: kept.byRow,
      byId: kept.byId,
      links: kept.links,
      add: (rowId, fact) => {
        if (kept.full || kept.byRow.has(rowId)) return;
        kept.byRow.set(rowId, freeze(fact));
        kept.byId.set(fact.id, fact);
        grow(FACT_BYTES);
      },
      addLinks: (key, links) => {
        if (kept.full || kept.links.has(key)) return;
        for (const l of links) Object.freeze(l);
        kept.links.set(key, Object.freeze(links));
        grow(linkBytes(links));
      },
    };
  }

  /** Brings the guilds whose epoch moved up to date (or drops them). */
  #dropStale(): void {
    for (const [guildId, entry] of this.#guilds) {
      const epoch = this.#epoch(guildId);
      if (epoch === entry.epoch) continue;
      this.#drop(guildId, entry);
      if (this.#catchUp(guildId, entry, epoch)) {
        this.#guilds.set(guildId, entry);
        this.#bytes += entry.bytes;
      }
    }
  }

  #lastChange(): number {
    return (
      (this.#c.stmt('SELECT max(seq) AS seq FROM fact_changes').get() as { seq: number | null }).seq ?? 0
    );
  }

  /**
   * Up to date with `epoch` (read before this call): the fact rows changed since the entry's last
   * logged change leave it, and every node link list (a new link or a fact's validity may change
   * any of them). False when the log no longer reaches back that far: the caller starts over.
   * Call with the entry detached (its bytes not counted).
   */
  #catchUp(guildId: string, entry: Entry, epoch: number): boolean {
    const last = this.#lastChange();
    const first = (this.#c.stmt('SELECT min(seq) AS seq FROM fact_changes').get() as { seq: number | null })
      .seq;
    if (first !== null && first > entry.seq + 1) return false;
    const changed = this.#c.stmt(FACT_CHANGES_SINCE).all(guildId, entry.seq, last) as { row_id: number }[];
    for (const { row_id } of changed) {
      const fact = entry.byRow.get(row_id);
      if (!fact) continue;
      entry.byRow.delete(row_id);
      if (entry.byId.get(fact.id) === fact) entry.byId.delete(fact.id);
      entry.bytes -= FACT_BYTES;
    }
    for (const links of entry.links.values()) entry.bytes -= linkBytes(links);
    entry.links.clear();
    entry.epoch = epoch;
    entry.seq = last;
    return true;
  }

  #drop(guildId: string, entry: Entry): void {
    this.#guilds.delete(guildId);
    this.#bytes -= entry.bytes;
  }

  /** Least recently read guilds first; the guild being filled, if it alone is over, stops taking more. */
  #evict(filling: Entry): void {
    for (const [guildId, entry] of this.#guilds) {
      if (this.#bytes <= this.#capacity) return;
      if (entry !== filling) this.#drop(guildId, entry);
    }
    if (this.#bytes > this.#capacity) filling.full = true;
  }
}

/**
 * Moves the guild's fact epoch: call in the transaction that adds links (their nodes' kept link
 * lists no longer hold every link). Updates and deletes move it by trigger.
 */
export function bumpFactEpoch(connection: SqliteConnection, guildId: string): void {
  connection
    .stmt(
      `INSERT INTO fact_epochs (guild_id, epoch) VALUES (?, 1)
         ON CONFLICT (guild_id) DO UPDATE SET epoch = epoch + 1`,
    )
    .run(guildId);
}

/** Nothing kept, nothing to keep. */
const UNKEPT: GuildFacts = {
  byRow: new Map(),
  byId: new Map(),
  links: new Map(),
  add: () => {},
  addLinks: () => {},
};

const linkBytes = (links: readonly Link[]): number => LINK_BYTES * Math.max(1, links.length);

/** Freezes a fact and its arrays and nested objects: a kept fact is shared by every caller. */
function freeze(fact: Fact): Fact {
  for (const value of Object.values(fact))
    if (typeof value === 'object' && value !== null && !(value instanceof Date)) deepFreeze(value);
  return Object.freeze(fact);
}

function deepFreeze(value: object): void {
  for (const inner of Object.values(value))
    if (typeof inner === 'object' && inner !== null && !(inner instanceof Date)) deepFreeze(inner);
  Object.freeze(value);
}
