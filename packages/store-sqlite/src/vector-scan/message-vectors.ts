import { ErrorCode, MemoryError } from '@permafrost/core';
import type { VectorQuery } from '@permafrost/core/store';
import type { SqliteConnection } from '../connection.js';
import { MESSAGE_VECTOR_CHANGES_KEPT } from '../migrations/011-message-vector-changes.js';
import { type ReadThread, THREAD_MIN_VECTORS } from '../read-thread/read-thread.js';
import { VEC_TABLES } from '../vec-layout.js';
import { dotsModule, GuildMatrix, matrixBytes, roomFor } from './guild-matrix.js';
import { type GuildRows, readGuildRows } from './guild-rows.js';

/**
 * Bytes of message vectors kept across every guild of one store object (a guild of about 55,000
 * vectors of 256 floats, each in f32 and in i8, with room to grow); past this the least recently
 * searched guilds go. A guild whose vectors alone would not fit is searched by sqlite-vec, as before.
 */
export const MESSAGE_VECTOR_BYTES = 80 * 1024 * 1024;
/** Whether kept copies answer a search: active messages of the whole guild (every conversation.search). */
export const keptSearch = (query: VectorQuery): boolean =>
  query.kind === 'message' && (query.activeOnly ?? true) && !query.serverOnly && !query.subjectIds;

/** Past this share of a guild's rows changed since it was read, reading it again is cheaper. */
const RELOAD_SHARE = 0.25;

interface Entry {
  readonly matrix: GuildMatrix;
  /** The last `message_vector_changes` entry the matrix is up to. */
  seq: number;
}

interface RowRead {
  readonly embedding: Buffer;
  readonly active: number;
}

/** The floats of a vec0 embedding blob (copied when the blob is not 4-byte aligned). */
const floats = (blob: Buffer): Float32Array =>
  blob.byteOffset % 4 === 0
    ? new Float32Array(blob.buffer, blob.byteOffset, blob.byteLength / 4)
    : new Float32Array(new Uint8Array(blob).buffer);
/**
 * A guild's message vectors logged after one `message_vector_changes` entry up to another, through
 * the index that serves it whatever the planner statistics say.
 */
export const MESSAGE_VECTOR_CHANGES_SINCE = `SELECT DISTINCT row_id FROM message_vector_changes
  INDEXED BY message_vector_changes_guild WHERE guild_id = ? AND seq > ? AND seq <= ?`;
/** Log entries after which a guild found too big is counted again. */
const RECOUNT_AFTER = 1024;

/**
 * Guilds' active message vectors kept in memory and searched with the dots module (WebAssembly
 * SIMD): a guild-wide message KNN (every `conversation.search`) is one pass of dot products instead
 * of sqlite-vec's scan, which costs several times more and grows with k. Each guild's copy is up to
 * one entry of `message_vector_changes` (migration 011), which logs every added, changed and
 * deleted message vector from any connection in the same transaction: before each search, and
 * after each commit of this store, the rows logged since are read again (dropped when gone or
 * inactive), so a deleted or forgotten message's vector is never served. The log position is read
 * before the rows, so they are at least as new as it; a copy behind the log's start is read again.
 * Nothing is read inside a write transaction (it could still roll back, and the log with it).
 */
export class MessageVectors {
  readonly #c: SqliteConnection;
  readonly #capacity: number;
  readonly #guilds = new Map<string, Entry>();
  /** Guilds found too big to keep, with the log position then (counted again RECOUNT_AFTER later). */
  readonly #tooBig = new Map<string, number>();
  /** Guilds being read on the read thread. */
  readonly #loading = new Map<string, Promise<void>>();
  readonly #thread: ReadThread | null;
  #bytes = 0;

  constructor(
    connection: SqliteConnection,
    capacity = MESSAGE_VECTOR_BYTES,
    thread: ReadThread | null = null,
  ) {
    this.#c = connection;
    this.#capacity = capacity;
    this.#thread = thread;
    connection.onCommitted(() => this.#catchUpAll());
  }

  /**
   * Logs an in-place change of a message vector, inside the write that makes it (rows added to or
   * deleted from vector_ids are logged by trigger; a vec0 table takes none).
   */
  logChange(guildId: string, rowId: bigint): void {
    this.#c.stmt('INSERT INTO message_vector_changes (guild_id, row_id) VALUES (?, ?)').run(guildId, rowId);
  }

  /** Estimated bytes held. */
  get bytes(): number {
    return this.#bytes;
  }

  /** How many of this guild's vectors are kept, or null when the guild is not (tests, diagnostics). */
  rowsKept(guildId: string): number | null {
    return this.#guilds.get(guildId)?.matrix.size ?? null;
  }

  /**
   * Before a guild-wide search, on the connection's turn: a big guild that is not kept yet is read
   * on the read thread (THREAD_MIN_VECTORS and more), so the event loop runs while it loads (about
   * 0.6 s at 50,000 vectors). The promise settles once the guild is kept, or could not be (the
   * search then reads it itself); null when there is nothing to wait for. Searches of the guild
   * meanwhile wait for the same read. The read starts after the log position is taken, so what it
   * misses is caught up like any other change.
   */
  loadAhead(guildId: string, dims: number): Promise<void> | null {
    const thread = this.#thread;
    if (!thread?.available || this.#guilds.has(guildId) || this.#c.writing || !dotsModule()) return null;
    const inFlight = this.#loading.get(guildId);
    if (inFlight) return inFlight;
    const last = this.#lastChange();
    const count = this.#keepable(guildId, dims, last);
    if (count === null || count < THREAD_MIN_VECTORS) return null;
    const load = thread
      .guildRows(guildId, dims)
      .then(
        (rows) => this.#c.run(() => void this.#keep(guildId, rows, last)),
        () => undefined, // the search reads the guild on the store's connection
      )
      .catch((error: unknown) => {
        // A store closed while the thread read has nothing to keep it for.
        if (!(error instanceof MemoryError && error.code === ErrorCode.CLOSED))
          this.#c.log('warn', 'sqlite.message_vectors_failed', { guildId }, error);
      })
      .finally(() => this.#loading.delete(guildId));
    this.#loading.set(guildId, load);
    return load;
  }

  /**
   * The `limit` active message vectors of the guild nearest to `vector` by cosine, as [item id,
   * cosine distance], or null when the guild is not kept and cannot be (too big, no WebAssembly,
   * inside a write transaction, a failure to keep it such as memory refused): the caller asks
   * sqlite-vec.
   */
  nearest(guildId: string, dims: number, vector: Float32Array, limit: number): [string, number][] | null {
    try {
      const entry = this.#entry(guildId, dims);
      if (!entry) return null;
      return entry.matrix.nearest(vector, limit).map(([id, similarity]) => [id, 1 - similarity]);
    } catch (error) {
      const entry = this.#guilds.get(guildId);
      if (entry) this.#detach(guildId, entry);
      this.#c.log('warn', 'sqlite.message_vectors_failed', { guildId }, error);
      return null;
    }
  }

  #entry(guildId: string, dims: number): Entry | null {
    if (this.#c.writing) return null;
    const module = dotsModule();
    if (!module) return null;
    const last = this.#lastChange();
    const kept = this.#guilds.get(guildId);
    if (kept) {
      this.#detach(guildId, kept);
      if (kept.matrix.dims === dims && this.#catchUp(guildId, kept, last)) return this.#attach(guildId, kept);
    }
    if (this.#keepable(guildId, dims, last) === null) return null;
    return this.#keep(guildId, readGuildRows(this.#c, guildId, dims), last);
  }

  /** The guild's vector count, or null when they would not fit (counted again RECOUNT_AFTER later). */
  #keepable(guildId: string, dims: number, last: number): number | null {
    const counted = this.#tooBig.get(guildId);
    if (counted !== undefined && last - counted < RECOUNT_AFTER) return null;
    const count = (
      this.#c
        .stmt("SELECT count(*) AS n FROM vector_ids WHERE guild_id = ? AND kind = 'message'")
        .get(guildId) as { n: number }
    ).n;
    if (matrixBytes(roomFor(count), count, dims) > this.#capacity) {
      this.#tooBig.set(guildId, last);
      return null;
    }
    this.#tooBig.delete(guildId);
    return count;
  }

  /** Keeps the rows read as the guild's copy, up to log position `last` (read before them). */
  #keep(guildId: string, rows: GuildRows, last: number): Entry | null {
    const module = dotsModule();
    if (!module || this.#guilds.has(guildId)) return this.#guilds.get(guildId) ?? null;
    const count = rows.itemIds.length;
    const matrix = new GuildMatrix(module, rows.dims, roomFor(count));
    for (let i = 0; i < count; i++)
      matrix.set(
        rows.rowIds[i] as number,
        rows.itemIds[i] as string,
        rows.vectors.subarray(i * rows.dims, (i + 1) * rows.dims),
      );
    return this.#attach(guildId, { matrix, seq: last });
  }

  /** Makes room, then keeps the entry as the most recently searched (null when it outgrew the room). */
  #attach(guildId: string, entry: Entry): Entry | null {
    if (entry.matrix.bytes > this.#capacity) return null;
    for (const [other, old] of this.#guilds) {
      if (this.#bytes + entry.matrix.bytes <= this.#capacity) break;
      this.#detach(other, old);
    }
    this.#guilds.set(guildId, entry);
    this.#bytes += entry.matrix.bytes;
    return entry;
  }

  #detach(guildId: string, entry: Entry): void {
    this.#guilds.delete(guildId);
    this.#bytes -= entry.matrix.bytes;
  }

  #lastChange(): number {
    return (
      (this.#c.stmt('SELECT max(seq) AS seq FROM message_vector_changes').get() as { seq: number | null })
        .seq ?? 0
    );
  }

  /**
   * Brings the matrix up to `last` (read before this call): the rows logged since its position are
   * read again, and leave it when gone or inactive. False when the log no longer reaches back that
   * far or most rows changed: the caller reads the guild again.
   */
  #catchUp(guildId: string, entry: Entry, last: number): boolean {
    if (last === entry.seq) return true;
    if (entry.seq < last - MESSAGE_VECTOR_CHANGES_KEPT) return false;
    const changed = this.#c
      .stmt(MESSAGE_VECTOR_CHANGES_SINCE)
      .pluck()
      .all(guildId, entry.seq, last) as number[];
    if (changed.length > Math.max(64, entry.matrix.size * RELOAD_SHARE)) return false;
    const id = this.#c
      .stmt("SELECT item_id FROM vector_ids WHERE row_id = ? AND guild_id = ? AND kind = 'message'")
      .pluck();
    const vector = this.#c.stmt(`SELECT embedding, active FROM ${VEC_TABLES.message} WHERE item_id = ?`);
    for (const rowId of changed) {
      const itemId = id.get(rowId, guildId) as string | undefined;
      const row = itemId === undefined ? undefined : (vector.get(BigInt(rowId)) as RowRead | undefined);
      if (
        itemId === undefined ||
        !row ||
        row.active !== 1 ||
        row.embedding.byteLength !== entry.matrix.dims * 4
      )
        entry.matrix.remove(rowId);
      else entry.matrix.set(rowId, itemId, floats(row.embedding));
    }
    entry.seq = last;
    return true;
  }

  /** After this store's commits: what it deleted leaves memory now, not at the guild's next search. */
  #catchUpAll(): void {
    if (this.#guilds.size === 0) return;
    const last = this.#lastChange();
    for (const [guildId, entry] of [...this.#guilds]) {
      if (this.#guilds.get(guildId) !== entry) continue; // evicted meanwhile
      this.#detach(guildId, entry);
      if (this.#catchUp(guildId, entry, last)) this.#attach(guildId, entry);
    }
  }
}
