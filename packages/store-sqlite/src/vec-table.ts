import {
  ErrorCode,
  MemoryError,
  type VectorHit,
  type VectorItem,
  type VectorKind,
  type VectorQuery,
} from '@permafrost/core';
import type { SqliteConnection } from './connection.js';
import { idList } from './rows/codec.js';

/** sqlite-vec refuses KNN queries with k above this; larger limits use an exact full scan. */
const MAX_KNN_K = 4096;
/**
 * Vectors per vec0 chunk. vec0 allocates a whole chunk per partition (guild × kind), so the default of 1024
 * costs ~1 MB per guild at 256 dimensions even for one vector; 128 keeps small guilds at 128 KB
 * while KNN over a 100k-vector guild stays within ~10 % of the default.
 */
const CHUNK_SIZE = 128;

/** Subject metadata of server items; members get refs ≥ 1 from `vector_subjects`. */
const SERVER_REF = 0n;

const mismatch = () =>
  new MemoryError(ErrorCode.DIMENSION_MISMATCH, 'vector length differs from the stored vectors');

/**
 * The sqlite-vec `vec0` table (created at the first upsert, with that vector length) and the map
 * that gives each (guild, kind, id) an integer rowid. Guild and kind are both partition keys, so a
 * fact KNN never reads message vectors (3x faster with 3 messages per fact); subject, server flag
 * and active are metadata filtered inside the KNN. Synchronous: callers provide run/write.
 * rowids and INTEGER/BOOLEAN metadata are bound as BigInt (vec0 rejects JS numbers, bound as REAL).
 */
export class VecTable {
  readonly #c: SqliteConnection;

  constructor(connection: SqliteConnection) {
    this.#c = connection;
  }

  dims(): number | null {
    const row = this.#c.stmt('SELECT dims FROM vector_meta WHERE id = 1').get() as
      | { dims: number }
      | undefined;
    return row?.dims ?? null;
  }

  /** Throws DIMENSION_MISMATCH unless `length` equals the stored dimensions (or none are set). */
  check(length: number): void {
    const dims = this.dims();
    if (dims !== null && dims !== length) throw mismatch();
  }

  #ensure(dims: number): void {
    if (this.dims() !== null) return;
    if (!Number.isInteger(dims) || dims <= 0) throw mismatch();
    this.#c.db.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS vec_items USING vec0(
         item_id INTEGER PRIMARY KEY,
         guild_id TEXT PARTITION KEY,
         kind TEXT PARTITION KEY,
         embedding FLOAT[${dims}] distance_metric=cosine,
         subject INTEGER,
         is_server BOOLEAN,
         active BOOLEAN,
         chunk_size=${CHUNK_SIZE}
       )`,
    );
    this.#c.stmt('INSERT INTO vector_meta (id, dims) VALUES (1, ?)').run(dims);
  }

  upsert(items: readonly VectorItem[]): void {
    const first = items[0];
    if (!first) return;
    const length = this.dims() ?? first.vector.length;
    for (const item of items) if (item.vector.length !== length) throw mismatch();
    this.#ensure(length);
    const find = this.#c.stmt(
      'SELECT row_id FROM vector_ids WHERE guild_id = ? AND kind = ? AND item_id = ?',
    );
    const map = this.#c.stmt('INSERT INTO vector_ids (guild_id, kind, item_id) VALUES (?, ?, ?)');
    const insert = this.#c.stmt(
      `INSERT INTO vec_items (item_id, guild_id, embedding, kind, subject, is_server, active)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    const update = this.#c.stmt(
      'UPDATE vec_items SET embedding = ?, subject = ?, is_server = ?, active = ? WHERE item_id = ?',
    );
    for (const item of items) {
      const vector = Float32Array.from(item.vector);
      const subject = this.#subjectRef(item.subjectId);
      const server = item.subjectId === null ? 1n : 0n;
      const active = item.active ? 1n : 0n;
      const row = find.get(item.guildId, item.kind, item.id) as { row_id: number } | undefined;
      if (row) {
        update.run(vector, subject, server, active, BigInt(row.row_id));
      } else {
        const rowId = BigInt(map.run(item.guildId, item.kind, item.id).lastInsertRowid);
        insert.run(rowId, item.guildId, vector, item.kind, subject, server, active);
      }
    }
  }

  /** The integer ref of a subject (created on first use); SERVER_REF for server items. */
  #subjectRef(subjectId: string | null): bigint {
    if (subjectId === null) return SERVER_REF;
    const found = this.#c.stmt('SELECT ref FROM vector_subjects WHERE subject_id = ?').get(subjectId) as
      | { ref: number }
      | undefined;
    if (found) return BigInt(found.ref);
    return BigInt(
      this.#c.stmt('INSERT INTO vector_subjects (subject_id) VALUES (?)').run(subjectId).lastInsertRowid,
    );
  }

  #rowIds(guildId: string, kind: VectorKind, ids: readonly string[]): number[] {
    if (ids.length === 0) return [];
    return (
      this.#c
        .stmt(
          'SELECT row_id FROM vector_ids WHERE guild_id = ? AND kind = ? AND item_id IN (SELECT value FROM json_each(?))',
        )
        .all(guildId, kind, idList(ids)) as { row_id: number }[]
    ).map((r) => r.row_id);
  }

  setActive(guildId: string, kind: VectorKind, ids: readonly string[], active: boolean): number {
    const rowIds = this.#rowIds(guildId, kind, ids);
    if (rowIds.length === 0) return 0;
    const update = this.#c.stmt('UPDATE vec_items SET active = ? WHERE item_id = ?');
    for (const rowId of rowIds) update.run(active ? 1n : 0n, BigInt(rowId));
    return rowIds.length;
  }

  /** Deletes these items' vectors; returns how many existed. */
  delete(guildId: string, kind: VectorKind, ids: readonly string[]): number {
    const rowIds = this.#rowIds(guildId, kind, ids);
    if (rowIds.length === 0) return 0;
    const vec = this.#c.stmt('DELETE FROM vec_items WHERE item_id = ?');
    const map = this.#c.stmt('DELETE FROM vector_ids WHERE row_id = ?');
    for (const rowId of rowIds) {
      vec.run(BigInt(rowId));
      map.run(rowId);
    }
    return rowIds.length;
  }

  /** How many of these items have a vector (for dry-run reports). */
  countExisting(guildId: string, kind: VectorKind, ids: readonly string[]): number {
    return this.#rowIds(guildId, kind, ids).length;
  }

  count(guildId: string, kind: VectorKind): number {
    return (
      this.#c
        .stmt('SELECT count(*) AS n FROM vector_ids WHERE guild_id = ? AND kind = ?')
        .get(guildId, kind) as {
        n: number;
      }
    ).n;
  }

  ids(guildId: string, kind: VectorKind): string[] {
    return (
      this.#c
        .stmt('SELECT item_id FROM vector_ids WHERE guild_id = ? AND kind = ? ORDER BY item_id')
        .all(guildId, kind) as { item_id: string }[]
    ).map((r) => r.item_id);
  }

  search(query: VectorQuery): VectorHit[] {
    const dims = this.dims();
    if (dims !== null && dims !== query.vector.length) throw mismatch();
    const limit = Math.floor(query.limit);
    if (dims === null || limit <= 0) return [];
    const conditions = ['guild_id = ?', 'kind = ?'];
    const params: (string | number)[] = [query.guildId, query.kind];
    if (query.activeOnly ?? true) conditions.push('active = 1');
    if (query.serverOnly) {
      conditions.push('is_server = 1');
    } else if (query.subjectIds) {
      const refs = (
        this.#c
          .stmt('SELECT ref FROM vector_subjects WHERE subject_id IN (SELECT value FROM json_each(?))')
          .all(idList(query.subjectIds)) as { ref: number }[]
      ).map((r) => r.ref);
      if (query.includeServer) refs.push(Number(SERVER_REF));
      if (refs.length === 0) return [];
      conditions.push('subject IN (SELECT value FROM json_each(?))');
      params.push(JSON.stringify(refs));
    }
    const where = conditions.join(' AND ');
    const vector = Float32Array.from(query.vector);
    const rows = (
      limit <= MAX_KNN_K
        ? this.#c
            .stmt(`SELECT item_id, distance FROM vec_items WHERE embedding MATCH ? AND k = ? AND ${where}`)
            .all(vector, limit, ...params)
        : this.#c
            .stmt(
              `SELECT item_id, vec_distance_cosine(embedding, ?) AS distance FROM vec_items WHERE ${where}
                 ORDER BY distance LIMIT ?`,
            )
            .all(vector, ...params, limit)
    ) as { item_id: number; distance: number }[];
    if (rows.length === 0) return [];
    const names = new Map(
      (
        this.#c
          .stmt('SELECT row_id, item_id FROM vector_ids WHERE row_id IN (SELECT value FROM json_each(?))')
          .all(JSON.stringify(rows.map((r) => r.item_id))) as { row_id: number; item_id: string }[]
      ).map((r) => [r.row_id, r.item_id]),
    );
    const hits: VectorHit[] = [];
    for (const r of rows) {
      const id = names.get(r.item_id);
      if (id !== undefined) hits.push({ id, score: 1 - r.distance });
    }
    return hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  reset(): void {
    this.#c.db.exec('DROP TABLE IF EXISTS vec_items');
    this.#c.stmt('DELETE FROM vector_ids').run();
    this.#c.stmt('DELETE FROM vector_meta').run();
    this.#c.stmt('DELETE FROM vector_subjects').run();
  }
}
