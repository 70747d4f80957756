import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LogEvent, Logger } from '@permafrost/core';
import type { VectorHit, VectorItem } from '@permafrost/core/store';
import { G1, unitVector } from '@permafrost/store-conformance';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SqliteConnection } from '../src/connection.js';
import { MESSAGE_VECTOR_CHANGES_KEPT } from '../src/migrations/011-message-vector-changes.js';
import { ReadThread, THREAD_MIN_VECTORS } from '../src/read-thread/read-thread.js';
import { SqliteVectorIndex } from '../src/sqlite-vector-index.js';
import { VecTable } from '../src/vec-table.js';
import { GuildMatrix, matrixBytes, roomFor } from '../src/vector-scan/guild-matrix.js';

const G2 = 'guild-2';
/** Not a multiple of 8: rows are padded to the module's stride. */
const DIMS = 12;

const item = (id: string, seed: number, over: Partial<VectorItem> = {}): VectorItem => ({
  kind: 'message',
  id,
  guildId: G1,
  subjectId: `author-${seed % 3}`,
  active: true,
  vector: unitVector(seed, DIMS),
  ...over,
});

/** Exact cosine top-k over what the test wrote (the oracle). */
function exact(items: Iterable<VectorItem>, query: Float32Array, k: number): VectorHit[] {
  const norm = (v: Float32Array) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return [...items]
    .map((it) => {
      let dot = 0;
      for (let i = 0; i < DIMS; i++) dot += (it.vector[i] as number) * (query[i] as number);
      return { id: it.id, score: dot / (norm(it.vector) * norm(query)) };
    })
    .sort((a, b) => b.score - a.score)
    .slice(0, k);
}

function expectSame(actual: readonly VectorHit[], expected: readonly VectorHit[]) {
  expect(actual.map((h) => h.id)).toEqual(expected.map((h) => h.id));
  actual.forEach((h, i) => {
    expect(h.score).toBeCloseTo(expected[i]?.score as number, 5);
  });
}

describe('message vectors kept in memory', () => {
  let dir: string;
  let path: string;
  const open: SqliteConnection[] = [];

  const threads: ReadThread[] = [];
  function store(capacity?: number, logger?: Logger, threadPath?: string) {
    const connection = new SqliteConnection({ path, busyTimeoutMs: 2000, logger });
    open.push(connection);
    const thread = threadPath === undefined ? null : new ReadThread(threadPath, 2000, logger);
    if (thread) threads.push(thread);
    const vec = new VecTable(connection, capacity, thread);
    return { connection, vec, thread, index: new SqliteVectorIndex(connection, vec) };
  }
  const search = (index: SqliteVectorIndex, query: Float32Array, limit = 10, guildId = G1) =>
    index.search({ kind: 'message', guildId, vector: query, limit });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'permafrost-message-vectors-'));
    path = join(dir, 'memory.db');
  });
  afterEach(async () => {
    for (const t of threads.splice(0)) await t.close();
    for (const c of open.splice(0)) await c.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers a guild-wide search from memory with the exact cosine top-k', async () => {
    const { vec, index } = store();
    const items = Array.from({ length: 300 }, (_, i) => item(`m${i}`, i + 1));
    await index.upsert(items);
    await index.upsert([item('other-guild', 999, { guildId: G2 })]);
    for (const seed of [5001, 5002, 5003]) {
      const query = unitVector(seed, DIMS);
      expectSame(await search(index, query, 25), exact(items, query, 25));
    }
    expect(vec.keptMessages.rowsKept(G1)).toBe(300);
    expect(vec.keptMessages.rowsKept(G2)).toBeNull();
    expect(vec.keptMessages.bytes).toBe(matrixBytes(roomFor(300), 300, DIMS));
    // Filtered searches still go to sqlite-vec, with the same answers.
    const query = unitVector(7, DIMS);
    const byAuthor = await index.search({
      kind: 'message',
      guildId: G1,
      vector: query,
      limit: 5,
      subjectIds: ['author-1'],
    });
    expectSame(
      byAuthor,
      exact(
        items.filter((it) => it.subjectId === 'author-1'),
        query,
        5,
      ),
    );
  });

  it('sees every change made through another connection before the next search', async () => {
    const { vec, index } = store();
    const other = store(0).index;
    const items = new Map(Array.from({ length: 40 }, (_, i) => [`m${i}`, item(`m${i}`, i + 1)]));
    await index.upsert([...items.values()]);
    const query = unitVector(4242, DIMS);
    expectSame(await search(index, query), exact(items.values(), query, 10));
    expect(vec.keptMessages.rowsKept(G1)).not.toBeNull();

    // The best hit is deleted, another goes inactive, one is re-embedded, two are added.
    const [bestId, secondId] = exact(items.values(), query, 2).map((h) => h.id) as [string, string];
    const secondItem = items.get(secondId) as VectorItem;
    await other.delete(G1, 'message', [bestId]);
    items.delete(bestId);
    await other.setActive(G1, 'message', [secondId], false);
    items.delete(secondId);
    const moved = item('m7', 4242); // now identical to the query
    await other.upsert([moved, item('new-1', 77), item('new-2', 78)]);
    items.set('m7', moved).set('new-1', item('new-1', 77)).set('new-2', item('new-2', 78));

    const hits = await search(index, query);
    expectSame(hits, exact(items.values(), query, 10));
    expect(hits[0]?.id).toBe('m7');
    expect(hits.map((h) => h.id)).not.toContain(bestId);
    expect(hits.map((h) => h.id)).not.toContain(secondId);
    expect(vec.keptMessages.rowsKept(G1)).not.toBeNull();

    // Active again elsewhere: back in the results.
    await other.setActive(G1, 'message', [secondId], true);
    items.set(secondId, secondItem);
    expectSame(await search(index, query), exact(items.values(), query, 10));
  });

  it("drops what this store deletes at its commit, and a raw connection's writes are logged too", async () => {
    const { vec, index } = store();
    await index.upsert([item('a', 1), item('b', 2), item('c', 3)]);
    await search(index, unitVector(1, DIMS));
    expect(vec.keptMessages.rowsKept(G1)).toBe(3);
    await index.delete(G1, 'message', ['a']);
    // Gone from memory at the commit, before any search.
    expect(vec.keptMessages.rowsKept(G1)).toBe(2);

    // A connection with no Permafrost code deletes an id row: the trigger logs it.
    const raw = new Database(path);
    raw.prepare("DELETE FROM vector_ids WHERE item_id = 'b'").run();
    raw.close();
    const hits = await search(index, unitVector(2, DIMS));
    expect(hits.map((h) => h.id)).toEqual(['c']);
  });

  it('reads a guild again when the log no longer reaches back to its copy', async () => {
    const { vec, index } = store();
    await index.upsert([item('a', 1), item('b', 2)]);
    await search(index, unitVector(1, DIMS));
    const other = store(0);
    await other.index.upsert([item('c', 3)]);
    // Enough other entries that the one adding `c` is pruned.
    await other.connection.write(() =>
      other.connection
        .stmt(
          `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${MESSAGE_VECTOR_CHANGES_KEPT})
           INSERT INTO message_vector_changes (guild_id, row_id) SELECT 'elsewhere', i FROM n`,
        )
        .run(),
    );
    const first = (
      other.connection.db.prepare('SELECT min(seq) AS s FROM message_vector_changes').get() as { s: number }
    ).s;
    expect(first).toBeGreaterThan(3);
    const hits = await search(index, unitVector(3, DIMS));
    expect(hits[0]?.id).toBe('c');
    expect(hits).toHaveLength(3);
    expect(vec.keptMessages.rowsKept(G1)).not.toBeNull();
  });

  it('keeps guilds within its capacity, least recently searched out first, and searches the rest with sqlite-vec', async () => {
    // Room for one guild of 30 (with its headroom), not for two, nor for one of 51.
    const capacity = matrixBytes(roomFor(30), 30, DIMS) + 100;
    const { vec, index } = store(capacity);
    const g1 = Array.from({ length: 30 }, (_, i) => item(`a${i}`, i + 1));
    const g2 = Array.from({ length: 30 }, (_, i) => item(`b${i}`, i + 101, { guildId: G2 }));
    const big = Array.from({ length: 51 }, (_, i) => item(`c${i}`, i + 201, { guildId: 'big' }));
    await index.upsert([...g1, ...g2, ...big]);
    const query = unitVector(9, DIMS);
    expectSame(await search(index, query), exact(g1, query, 10));
    expect(vec.keptMessages.rowsKept(G1)).not.toBeNull();
    expectSame(await search(index, query, 10, G2), exact(g2, query, 10));
    expect(vec.keptMessages.rowsKept(G2)).not.toBeNull();
    expect(vec.keptMessages.rowsKept(G1)).toBeNull();
    expect(vec.keptMessages.bytes).toBeLessThanOrEqual(capacity);
    expectSame(await search(index, query, 10, 'big'), exact(big, query, 10));
    expect(vec.keptMessages.rowsKept('big')).toBeNull();
    expect(vec.keptMessages.rowsKept(G2)).not.toBeNull();
  });

  it('reads inside a write transaction from the database, and keeps nothing a rollback takes back', async () => {
    const { connection, vec, index } = store();
    await index.upsert([item('a', 1)]);
    await search(index, unitVector(1, DIMS));
    const query = unitVector(50, DIMS);
    await expect(
      connection.transaction(async () => {
        await index.upsert([item('b', 50)]);
        expect((await search(index, query))[0]?.id).toBe('b');
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await search(index, query)).map((h) => h.id)).toEqual(['a']);
    expect(vec.keptMessages.rowsKept(G1)).not.toBeNull();
  });

  it('starts over after a reset with vectors of another length', async () => {
    const { vec, index } = store();
    await index.upsert([item('a', 1)]);
    await search(index, unitVector(1, DIMS));
    await index.reset();
    const wide = (seed: number) => unitVector(seed, 16);
    await index.upsert([item('x', 1, { vector: wide(1) }), item('y', 2, { vector: wide(2) })]);
    const hits = await search(index, wide(2));
    expect(hits.map((h) => h.id)).toEqual(['y', 'x']);
    expect(hits[0]?.score).toBeCloseTo(1, 5);
    expect(vec.keptMessages.rowsKept(G1)).not.toBeNull();
  });

  it('answers from sqlite-vec when the kept copy fails, logs the guild id only, and drops the copy', async () => {
    const logs: LogEvent[] = [];
    const { vec, index } = store(undefined, (r) => logs.push(r));
    const items = Array.from({ length: 20 }, (_, i) => item(`m${i}`, i + 1));
    await index.upsert(items);
    const query = unitVector(31, DIMS);
    await search(index, query);
    expect(vec.keptMessages.rowsKept(G1)).toBe(20);
    const failing = vi.spyOn(GuildMatrix.prototype, 'nearest').mockImplementation(() => {
      throw new RangeError('WebAssembly.Memory.grow(): Maximum memory size exceeded');
    });
    try {
      expectSame(await search(index, query), exact(items, query, 10));
    } finally {
      failing.mockRestore();
    }
    expect(vec.keptMessages.rowsKept(G1)).toBeNull();
    const warnings = logs.filter((r) => r.level !== 'info' && r.level !== 'debug');
    expect(warnings.map((r) => [r.event, r.data])).toEqual([
      ['sqlite.message_vectors_failed', { guildId: G1 }],
    ]);
    expect(warnings[0]?.error).toBeInstanceOf(RangeError);
    // The next search keeps the guild again.
    expectSame(await search(index, query), exact(items, query, 10));
    expect(vec.keptMessages.rowsKept(G1)).toBe(20);
  });

  it('reads a big guild on the read thread: the event loop runs meanwhile, and changes made during the read are caught up', async () => {
    const logs: LogEvent[] = [];
    const { vec, index, thread } = store(undefined, (r) => logs.push(r), path);
    const items = new Map(
      Array.from({ length: THREAD_MIN_VECTORS + 10 }, (_, i) => item(`m${i}`, i + 1)).map((it) => [
        it.id,
        it,
      ]),
    );
    await index.upsert([...items.values()]);
    const query = unitVector(77, DIMS);
    // Written after the thread read the guild and before its rows are kept: the best match added,
    // the old best match deleted.
    const added = item('m-added', 0, { vector: query });
    const [best] = exact(items.values(), query, 1);
    const read = thread?.guildRows.bind(thread);
    const between = vi.spyOn(thread as ReadThread, 'guildRows').mockImplementation(async (guildId, dims) => {
      const rows = await (read as ReadThread['guildRows'])(guildId, dims);
      await index.upsert([added]);
      await index.delete(G1, 'message', [best?.id as string]);
      return rows;
    });
    items.set(added.id, added);
    items.delete(best?.id as string);
    let ticked = false;
    setImmediate(() => {
      ticked = true;
    });
    const first = search(index, query);
    expectSame(await first, exact(items.values(), query, 10));
    expect(between).toHaveBeenCalledTimes(1);
    expect(ticked).toBe(true);
    expectSame(await search(index, query), exact(items.values(), query, 10));
    expect(vec.keptMessages.rowsKept(G1)).toBe(items.size);
    expect(logs.filter((r) => r.event.startsWith('sqlite.read_thread')).map((r) => r.event)).toEqual([
      'sqlite.read_thread_started',
    ]);
    expect(logs.filter((r) => r.level === 'warn' || r.level === 'error')).toEqual([]);
  });

  it('reads a big guild on the store connection when the read thread cannot', async () => {
    const logs: LogEvent[] = [];
    const { vec, index } = store(undefined, (r) => logs.push(r), join(dir, 'no-such-file.db'));
    const items = Array.from({ length: THREAD_MIN_VECTORS }, (_, i) => item(`m${i}`, i + 1));
    await index.upsert(items);
    const query = unitVector(78, DIMS);
    expectSame(await search(index, query), exact(items, query, 10));
    expect(vec.keptMessages.rowsKept(G1)).toBe(items.length);
    expect(logs.filter((r) => r.level === 'warn').map((r) => r.event)).toEqual(['sqlite.read_thread_failed']);
  });

  it('closing while the read thread reads a big guild settles the search and logs nothing', async () => {
    const logs: LogEvent[] = [];
    const { connection, index, thread } = store(undefined, (r) => logs.push(r), path);
    await index.upsert(Array.from({ length: THREAD_MIN_VECTORS }, (_, i) => item(`m${i}`, i + 1)));
    const pending = search(index, unitVector(79, DIMS)).then(
      (hits) => hits.length,
      (error: unknown) => (error as { code?: string }).code,
    );
    await connection.close();
    await thread?.close();
    expect([10, 'CLOSED']).toContain(await pending);
    expect(logs.filter((r) => r.level === 'warn' || r.level === 'error')).toEqual([]);
  });
});
