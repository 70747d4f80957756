import type { Fact, Link } from '@permafrost/core';
import type { SqliteConnection } from './connection.js';

/**
 * Bytes of decoded facts and links kept across every guild of one store object: past this the
 * least recently read guilds go, then the oldest kept of the guild being read. A 10k-fact guild
 * whose every fact and member's links were read fits.
 */
export const FACT_CACHE_BYTES = 24 * 1024 * 1024;
/** Heap held by one decoded fact and by one link, as measured on the bench's guilds. */
const FACT_BYTES = 1600;
const LINK_BYTES = 200;

/**
 * One guild's decoded facts at one value of its fact epoch. Readers collect their results in maps
 * of their own: kept facts may be dropped while a read adds more (capacity).
 */
export interface GuildFacts {
  readonly byRow: ReadonlyMap<number, Fact>;
  readonly byId: ReadonlyMap<string, Fact>;
  /** A node's links by read key (node, validity, limit). */
  readonly links: ReadonlyMap<string, readonly Link[]>;
  /** Keeps a fact read in the same snapshot (unless the read may still roll back). */
  add(rowId: number, fact: Fact): void;
  /** Keeps a node's links read in the same snapshot, under their read key. */
  addLinks(key: string, links: readonly Link[]): void;
}

interface Entry {
  readonly epoch: number;
  readonly byRow: Map<number, Fact>;
  readonly byId: Map<string, Fact>;
  readonly links: Map<string, readonly Link[]>;
  /** Estimated heap held (FACT_BYTES, LINK_BYTES). */
  bytes: number;
}

/**
 * Decoded facts and node links kept between reads. Ranked reads (promptContext, recall) decode
 * the same hundred or so facts and links again and again, and decoding costs more than ranking.
 * A guild's are kept for as long as its fact epoch (migration 010: triggers move it with every
 * insert, update and delete of the guild's facts and links, from any connection, in the same
 * transaction) has not moved, so a fact or link that was changed, retired, erased or deleted is
 * never served from here. The epoch is read in the same snapshot as the rows it vouches for.
 * Nothing read inside a write transaction is kept (it could still roll back, and the epoch with
 * it). Kept values are frozen: callers share them.
 */
export class FactCache {
  readonly #c: SqliteConnection;
  readonly #capacity: number;
  readonly #guilds = new Map<string, Entry>();
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

  /** The guild's kept facts, valid now (call inside the snapshot that reads the missing ones). */
  guild(guildId: string): GuildFacts {
    if (this.#c.writing) return unkept();
    const epoch = this.#epoch(guildId);
    let entry = this.#guilds.get(guildId);
    if (entry) this.#drop(guildId, entry);
    if (!entry || entry.epoch !== epoch)
      entry = { epoch, byRow: new Map(), byId: new Map(), links: new Map(), bytes: 0 };
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
        if (kept.byRow.has(rowId)) return;
        kept.byRow.set(rowId, freeze(fact));
        kept.byId.set(fact.id, fact);
        grow(FACT_BYTES);
      },
      addLinks: (key, links) => {
        if (kept.links.has(key)) return;
        for (const l of links) Object.freeze(l);
        kept.links.set(key, Object.freeze(links));
        grow(LINK_BYTES * Math.max(1, links.length));
      },
    };
  }

  /** Drops the guilds whose epoch moved. */
  #dropStale(): void {
    for (const [guildId, entry] of this.#guilds)
      if (this.#epoch(guildId) !== entry.epoch) this.#drop(guildId, entry);
  }

  #drop(guildId: string, entry: Entry): void {
    this.#guilds.delete(guildId);
    this.#bytes -= entry.bytes;
  }

  /**
   * Least recently read guilds first, then the oldest kept facts and links of the guild being
   * filled, down to nine tenths of the capacity (so a guild larger than it trims now and then, not
   * at every read).
   */
  #evict(filling: Entry): void {
    for (const [guildId, entry] of this.#guilds) {
      if (this.#bytes <= this.#capacity) return;
      if (entry !== filling) this.#drop(guildId, entry);
    }
    const target = Math.floor(this.#capacity * 0.9);
    const trim = (bytes: number) => {
      filling.bytes -= bytes;
      this.#bytes -= bytes;
    };
    for (const [rowId, fact] of filling.byRow) {
      if (this.#bytes <= target) return;
      filling.byRow.delete(rowId);
      filling.byId.delete(fact.id);
      trim(FACT_BYTES);
    }
    for (const [key, links] of filling.links) {
      if (this.#bytes <= target) return;
      filling.links.delete(key);
      trim(LINK_BYTES * Math.max(1, links.length));
    }
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
function unkept(): GuildFacts {
  return { byRow: new Map(), byId: new Map(), links: new Map(), add: () => {}, addLinks: () => {} };
}

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
