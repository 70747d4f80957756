import { ErrorCode, MemoryError } from '@permafrost/core';
import type { VectorHit, VectorItem, VectorKind, VectorQuery } from '@permafrost/core/store';
import type { SqliteConnection } from './connection.js';
import type { ReadThread } from './read-thread/read-thread.js';
import { idList } from './rows/codec.js';
import { rawRows } from './rows/raw.js';
import { factShard, SERVER_REF, VEC_TABLES, VecLayout } from './vec-layout.js';
import { keptSearch, MessageVectors } from './vector-scan/message-vectors.js';

/** sqlite-vec refuses KNN queries with k above this; larger limits use an exact full scan. */
const MAX_KNN_K = 4096;

/** Item id and cosine distance of a KNN row. */
type KnnRow = readonly [string, number];

const mismatch = () =>
  new MemoryError(ErrorCode.DIMENSION_MISMATCH, 'vector length differs from the stored vectors');

interface Scope {
  readonly where: string;
  readonly params: (string | number)[];
  /** Fact shards to search one by one (their top hits are merged), or null for the whole guild. */
  readonly shards: readonly bigint[] | null;
}

/**
 * The sqlite-vec tables of facts and messages (see `VecLayout`) and the map that gives each
 * (guild, kind, id) an integer rowid. Subject and active (and for messages the server flag) are
 * metadata filtered inside the KNN. Synchronous: callers provide run/write. rowids and
 * INTEGER/BOOLEAN metadata are bound as BigInt (vec0 rejects JS numbers, bound as REAL).
 */
export class VecTable {
  readonly #c: SqliteConnection;
  readonly #layout: VecLayout;
  readonly #kept: MessageVectors;

  constructor(connection: SqliteConnection, keptMessageBytes?: number, thread: ReadThread | null = null) {
    this.#c = connection;
    this.#layout = new VecLayout(connection);
    this.#kept = new MessageVectors(connection, keptMessageBytes, thread);
  }

  /** The guilds' message vectors kept in memory (see MessageVectors). */
  get keptMessages(): MessageVectors {
    return this.#kept;
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

  /** Whether vectors still sit in the pre-sharding table. */
  needsUpgrade(): boolean {
    return this.#layout.isLegacy();
  }

  /** Moves vectors out of the pre-sharding table (inside a write). */
  upgrade(): void {
    this.#layout.upgrade();
  }

  #ensure(dims: number): void {
    if (this.#layout.ready()) return;
    if (!Number.isInteger(dims) || dims <= 0) throw mismatch();
    this.#layout.create(dims);
    this.#c.stmt('INSERT OR IGNORE INTO vector_meta (id, dims) VALUES (1, ?)').run(dims);
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
    for (const item of items) {
      const vector = Float32Array.from(item.vector);
      const subject = this.#subjectRef(item.subjectId);
      const active = item.active ? 1n : 0n;
      const row = find.get(item.guildId, item.kind, item.id) as { row_id: number } | undefined;
      const rowId = row
        ? BigInt(row.row_id)
        : BigInt(map.run(item.guildId, item.kind, item.id).lastInsertRowid);
      if (item.kind === 'fact')
        this.#putFact(rowId, item.guildId, vector, subject, active, row !== undefined);
      else this.#putMessage(rowId, item.guildId, vector, subject, active, row !== undefined);
    }
  }

  #putFact(
    rowId: bigint,
    guildId: string,
    vector: Float32Array,
    subject: bigint,
    active: bigint,
    known: boolean,
  ) {
    const t = VEC_TABLES.fact;
    const shard = factShard(subject);
    const stored = known
      ? (this.#c.stmt(`SELECT shard FROM ${t} WHERE item_id = ?`).get(rowId) as { shard: number } | undefined)
      : undefined;
    if (stored && BigInt(stored.shard) === shard) {
      this.#c
        .stmt(`UPDATE ${t} SET embedding = ?, subject = ?, active = ? WHERE item_id = ?`)
        .run(vector, subject, active, rowId);
      return;
    }
    // A new subject may move the vector to another shard (a partition key cannot be updated).
    if (stored) this.#c.stmt(`DELETE FROM ${t} WHERE item_id = ?`).run(rowId);
    this.#c
      .stmt(
        `INSERT INTO ${t} (item_id, guild_id, shard, embedding, subject, active) VALUES (?, ?, ?, ?, ?, ?)`,
      )
      .run(rowId, guildId, shard, vector, subject, active);
  }

  #putMessage(
    rowId: bigint,
    guildId: string,
    vector: Float32Array,
    subject: bigint,
    active: bigint,
    known: boolean,
  ) {
    const t = VEC_TABLES.message;
    const server = subject === SERVER_REF ? 1n : 0n;
    const update = known
      ? this.#c
          .stmt(`UPDATE ${t} SET embedding = ?, subject = ?, is_server = ?, active = ? WHERE item_id = ?`)
          .run(vector, subject, server, active, rowId).changes
      : 0;
    // A row new to vector_ids was logged by its trigger; one already there is logged here.
    if (known) this.#kept.logChange(guildId, rowId);
    if (update === 0)
      this.#c
        .stmt(
          `INSERT INTO ${t} (item_id, guild_id, embedding, subject, is_server, active) VALUES (?, ?, ?, ?, ?, ?)`,
        )
        .run(rowId, guildId, vector, subject, server, active);
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
    if (rowIds.length === 0 || !this.#layout.ready()) return rowIds.length;
    const update = this.#c.stmt(`UPDATE ${VEC_TABLES[kind]} SET active = ? WHERE item_id = ?`);
    for (const rowId of rowIds) {
      update.run(active ? 1n : 0n, BigInt(rowId));
      if (kind === 'message') this.#kept.logChange(guildId, BigInt(rowId));
    }
    return rowIds.length;
  }

  /** Deletes these items' vectors; returns how many existed. */
  delete(guildId: string, kind: VectorKind, ids: readonly string[]): number {
    const rowIds = this.#rowIds(guildId, kind, ids);
    if (rowIds.length === 0) return 0;
    const ready = this.#layout.ready();
    const vec = ready ? this.#c.stmt(`DELETE FROM ${VEC_TABLES[kind]} WHERE item_id = ?`) : null;
    const map = this.#c.stmt('DELETE FROM vector_ids WHERE row_id = ?');
    for (const rowId of rowIds) {
      vec?.run(BigInt(rowId));
      map.run(rowId);
    }
    return rowIds.length;
  }

  /** How many of these items have a vector (for purge reports). */
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

  /** WHERE conditions (after the guild) of a query's scope; null when nothing can match. */
  #scope(query: VectorQuery): Scope | null {
    const conditions: string[] = [];
    const params: (string | number)[] = [];
    let shards: bigint[] | null = null;
    if (query.activeOnly ?? true) conditions.push('v.active = 1');
    const fact = query.kind === 'fact';
    if (query.serverOnly) {
      if (fact) shards = [0n];
      else conditions.push('v.is_server = 1');
    } else if (query.subjectIds) {
      const refs = (
        this.#c
          .stmt('SELECT ref FROM vector_subjects WHERE subject_id IN (SELECT value FROM json_each(?))')
          .all(idList(query.subjectIds)) as { ref: number }[]
      ).map((r) => BigInt(r.ref));
      if (query.includeServer) refs.push(SERVER_REF);
      if (refs.length === 0) return null;
      if (fact) shards = [...new Set(refs.map(factShard))];
      conditions.push('v.subject IN (SELECT value FROM json_each(?))');
      params.push(JSON.stringify(refs.map(Number)));
    }
    return { where: conditions.map((c) => ` AND ${c}`).join(''), params, shards };
  }

  search(query: VectorQuery): VectorHit[] {
    const dims = this.dims();
    if (dims !== null && dims !== query.vector.length) throw mismatch();
    const limit = Math.floor(query.limit);
    if (dims === null || limit <= 0 || !this.#layout.ready()) return [];
    const scope = this.#scope(query);
    if (scope === null) return [];
    const vector = Float32Array.from(query.vector);
    const rows =
      (keptSearch(query) ? this.#kept.nearest(query.guildId, dims, vector, limit) : null) ??
      this.#knn(VEC_TABLES[query.kind], query, vector, limit, scope);
    const hits = rows.map((r): VectorHit => ({ id: r[0], score: 1 - r[1] }));
    return hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /**
   * Exact top-`limit` rows of the scope: one KNN per shard (each exact within its shard), merged,
   * so the result is exact over the union. Never a partition IN list, whose per-value results
   * would depend on how the planner hands it to sqlite-vec.
   */
  #knn(table: string, query: VectorQuery, vector: Float32Array, limit: number, scope: Scope): KnnRow[] {
    // CROSS JOIN keeps the KNN outermost; the id map turns rowids into item ids in the same statement.
    const from = `${table} v CROSS JOIN vector_ids i ON i.row_id = v.item_id`;
    const shard = scope.shards ? ' AND v.shard = ?' : '';
    const knn =
      limit <= MAX_KNN_K
        ? this.#c.stmt(
            `SELECT i.item_id, v.distance FROM ${from}
               WHERE v.embedding MATCH ? AND v.k = ? AND v.guild_id = ?${shard}${scope.where}`,
          )
        : this.#c.stmt(
            `SELECT i.item_id, vec_distance_cosine(v.embedding, ?) AS distance FROM ${from}
               WHERE v.guild_id = ?${shard}${scope.where} ORDER BY distance LIMIT ?`,
          );
    const run = (shards: bigint[]) =>
      rawRows(
        knn,
        limit <= MAX_KNN_K
          ? [vector, limit, query.guildId, ...shards, ...scope.params]
          : [vector, query.guildId, ...shards, ...scope.params, limit],
      ) as unknown as KnnRow[];
    if (!scope.shards) return run([]);
    if (scope.shards.length === 1) return run([scope.shards[0] as bigint]);
    return scope.shards
      .flatMap((s) => run([s]))
      .sort((a, b) => a[1] - b[1])
      .slice(0, limit);
  }

  reset(): void {
    this.#layout.drop();
    this.#c.stmt('DELETE FROM vector_ids').run();
    this.#c.stmt('DELETE FROM vector_meta').run();
    this.#c.stmt('DELETE FROM vector_subjects').run();
  }
}
