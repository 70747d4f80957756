import type { VectorKind } from '@permafrost/core/store';
import type { SqliteConnection } from './connection.js';

/**
 * Fact vectors are sharded by subject: shard 0 holds server facts, shards 1..FACT_SHARDS hold
 * members' facts by subject ref. A KNN scoped to a few members or to the server (every
 * promptContext, every reconcile) then scans only their shards: sqlite-vec reads a whole chunk of
 * vectors whenever one row of it matches, so a scan filtered only by metadata reads nearly every
 * chunk of the guild. Every shard of a guild allocates at least one chunk, hence the smaller chunk
 * for facts (a small guild costs at most 17 × 64 vectors).
 */
export const FACT_SHARDS = 16;
const FACT_CHUNK = 64;
/**
 * Message vectors are searched guild-wide, so they stay in one partition per guild; 128 per chunk
 * keeps a small guild at 128 vectors while KNN over 100k stays within ~10 % of sqlite-vec's default.
 */
const MESSAGE_CHUNK = 128;

/** Subject metadata of server items; members get refs ≥ 1 from `vector_subjects`. */
export const SERVER_REF = 0n;

export const VEC_TABLES: Readonly<Record<VectorKind, string>> = {
  fact: 'vec_facts',
  message: 'vec_messages',
};
/** The layout before sharding: one table for both kinds (partitioned by guild and kind). */
const LEGACY = 'vec_items';

/** The shard of a fact vector with this subject ref. */
export const factShard = (ref: bigint): bigint =>
  ref === SERVER_REF ? 0n : 1n + (ref % BigInt(FACT_SHARDS));

/**
 * The vec0 tables (created at the first upsert, with that vector length, since the length is not
 * known before) and the one-time move from the legacy single table. Synchronous: callers provide
 * run/write. The schema version is remembered so the layout is looked up only after DDL (from any
 * connection); sqlite-vec tables cannot be renamed, so the new ones have new names.
 */
export class VecLayout {
  readonly #c: SqliteConnection;
  #schemaVersion = -1;
  #state: 'none' | 'legacy' | 'current' = 'none';

  constructor(connection: SqliteConnection) {
    this.#c = connection;
  }

  #read(): 'none' | 'legacy' | 'current' {
    const version = (this.#c.stmt('PRAGMA schema_version').get() as { schema_version: number })
      .schema_version;
    if (version === this.#schemaVersion) return this.#state;
    const names = new Set(
      (
        this.#c
          .stmt("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (?, ?)")
          .all(VEC_TABLES.fact, LEGACY) as { name: string }[]
      ).map((r) => r.name),
    );
    this.#state = names.has(LEGACY) ? 'legacy' : names.has(VEC_TABLES.fact) ? 'current' : 'none';
    this.#schemaVersion = version;
    return this.#state;
  }

  /** Whether vectors still sit in the legacy table (setup moves them). */
  isLegacy(): boolean {
    return this.#read() === 'legacy';
  }

  /** Whether the vec tables exist (moving legacy vectors first, in one transaction). */
  ready(): boolean {
    if (this.#read() === 'legacy') this.#c.atomic(() => this.upgrade());
    return this.#read() === 'current';
  }

  /** Creates the tables for `dims`-long vectors unless they exist. */
  create(dims: number): void {
    this.#c.db.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS ${VEC_TABLES.fact} USING vec0(
         item_id INTEGER PRIMARY KEY,
         guild_id TEXT PARTITION KEY,
         shard INTEGER PARTITION KEY,
         embedding FLOAT[${dims}] distance_metric=cosine,
         subject INTEGER,
         active BOOLEAN,
         chunk_size=${FACT_CHUNK}
       );
       CREATE VIRTUAL TABLE IF NOT EXISTS ${VEC_TABLES.message} USING vec0(
         item_id INTEGER PRIMARY KEY,
         guild_id TEXT PARTITION KEY,
         embedding FLOAT[${dims}] distance_metric=cosine,
         subject INTEGER,
         is_server BOOLEAN,
         active BOOLEAN,
         chunk_size=${MESSAGE_CHUNK}
       )`,
    );
  }

  /** Moves vectors from the legacy table into the sharded tables (rowids kept). Run atomically. */
  upgrade(): void {
    if (this.#read() !== 'legacy') return;
    const dims = this.#c.stmt('SELECT dims FROM vector_meta WHERE id = 1').get() as
      | { dims: number }
      | undefined;
    if (dims) {
      this.create(dims.dims);
      this.#c.db.exec(
        `INSERT INTO ${VEC_TABLES.fact} (item_id, guild_id, shard, embedding, subject, active)
           SELECT item_id, guild_id, CASE WHEN subject = ${SERVER_REF} THEN 0 ELSE 1 + subject % ${FACT_SHARDS} END,
                  embedding, subject, active
             FROM ${LEGACY} WHERE kind = 'fact';
         INSERT INTO ${VEC_TABLES.message} (item_id, guild_id, embedding, subject, is_server, active)
           SELECT item_id, guild_id, embedding, subject, is_server, active FROM ${LEGACY} WHERE kind = 'message'`,
      );
    }
    this.#c.db.exec(`DROP TABLE ${LEGACY}`);
    this.#c.log('info', 'sqlite.vectors_resharded', { shards: FACT_SHARDS });
  }

  /** Drops every vec table (legacy included). */
  drop(): void {
    for (const t of [VEC_TABLES.fact, VEC_TABLES.message, LEGACY])
      this.#c.db.exec(`DROP TABLE IF EXISTS ${t}`);
  }
}
