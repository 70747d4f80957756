import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryError } from '@permafrost/core';
import { G1, makeFact, unitVector, vectorItem } from '@permafrost/store-conformance';
import { createSqliteStore } from '@permafrost/store-sqlite';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toStoreError } from '../src/errors.js';

const SECRET = 'alice secretly adores licorice';

async function codeOf(promise: Promise<unknown>): Promise<{ code: string; message: string; cause: unknown }> {
  try {
    await promise;
  } catch (error) {
    expect(MemoryError.is(error)).toBe(true);
    const e = error as MemoryError;
    return { code: e.code, message: e.message, cause: e.cause };
  }
  throw new Error('expected a rejection');
}

describe('driver errors become MemoryErrors with fixed messages', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'permafrost-errors-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('maps each SQLite result code family', () => {
    const err = (code: string) => Object.assign(new Error(`driver text ${SECRET}`), { code });
    const cases: [string, string][] = [
      ['SQLITE_BUSY', 'STORE_BUSY'],
      ['SQLITE_BUSY_SNAPSHOT', 'STORE_BUSY'],
      ['SQLITE_LOCKED', 'STORE_BUSY'],
      ['SQLITE_READONLY', 'STORE_READ_ONLY'],
      ['SQLITE_READONLY_DBMOVED', 'STORE_READ_ONLY'],
      ['SQLITE_FULL', 'STORE_FULL'],
      ['SQLITE_CORRUPT', 'STORE_CORRUPT'],
      ['SQLITE_CORRUPT_VTAB', 'STORE_CORRUPT'],
      ['SQLITE_NOTADB', 'STORE_CORRUPT'],
      ['SQLITE_IOERR_WRITE', 'STORE_UNAVAILABLE'],
      ['SQLITE_CONSTRAINT_CHECK', 'STORE_UNAVAILABLE'],
    ];
    for (const [driver, code] of cases) {
      const mapped = toStoreError(err(driver));
      expect(mapped.code).toBe(code);
      expect(mapped.message).not.toContain(SECRET);
      expect((mapped.cause as { code: string }).code).toBe(driver);
    }
    expect(toStoreError(new TypeError('x')).code).toBe('STORE_UNAVAILABLE');
  });

  it('reports a duplicate fact id as CONFLICT without the fact text', async () => {
    const store = createSqliteStore({ path: ':memory:' });
    const f = makeFact({ text: SECRET });
    await store.facts.insert([f]);
    const e = await codeOf(store.facts.insert([f]));
    expect(e.code).toBe('CONFLICT');
    expect(e.message).not.toContain('licorice');
    await store.close();
  });

  it('gives STORE_BUSY when another connection holds the write lock past the busy timeout', async () => {
    const path = join(dir, 'busy.db');
    const store = createSqliteStore({ path, busyTimeoutMs: 50 });
    await store.setup();
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE');
    try {
      const e = await codeOf(store.facts.insert([makeFact({ text: SECRET })]));
      expect(e.code).toBe('STORE_BUSY');
      expect(e.message).not.toContain('licorice');
      expect(await codeOf(store.transaction(async () => 1))).toMatchObject({ code: 'STORE_BUSY' });
      // WAL readers are never blocked by the writer.
      expect(await store.facts.get(G1, ['fct_none'])).toEqual([]);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    await store.facts.insert([makeFact()]);
    await store.close();
  });

  it('gives STORE_CORRUPT for a file that is not a database', async () => {
    const path = join(dir, 'garbage.db');
    writeFileSync(path, Buffer.alloc(8192, 0x5a));
    const store = createSqliteStore({ path });
    expect((await codeOf(store.setup())).code).toBe('STORE_CORRUPT');
    await store.close();
  });

  it('gives STORE_UNAVAILABLE when the file cannot be opened', async () => {
    writeFileSync(join(dir, 'a-file'), 'not a folder');
    const store = createSqliteStore({ path: join(dir, 'a-file', 'x.db') });
    expect((await codeOf(store.ping())).code).toBe('STORE_UNAVAILABLE');
    await store.close();
  });

  it('refuses every use after close with CLOSED', async () => {
    const store = createSqliteStore({ path: ':memory:' });
    await store.ping();
    await store.close();
    await store.close();
    expect((await codeOf(store.facts.get(G1, ['x']))).code).toBe('CLOSED');
    expect((await codeOf(store.queue.counts(G1))).code).toBe('CLOSED');
    expect((await codeOf(store.transaction(async () => 1))).code).toBe('CLOSED');
    expect((await codeOf(store.setup())).code).toBe('CLOSED');
  });

  it('fixes vector dimensions for the file, across store objects, until reset', async () => {
    const path = join(dir, 'dims.db');
    const a = createSqliteStore({ path });
    const b = createSqliteStore({ path });
    expect(await a.vectors.dimensions()).toBeNull();
    await a.vectors.upsert([vectorItem('v1', unitVector(1, 8))]);
    expect(await b.vectors.dimensions()).toBe(8);
    expect((await codeOf(b.vectors.upsert([vectorItem('v2', unitVector(1, 16))]))).code).toBe(
      'DIMENSION_MISMATCH',
    );
    expect(
      (await codeOf(b.vectors.search({ kind: 'fact', guildId: G1, vector: unitVector(1, 16), limit: 3 })))
        .code,
    ).toBe('DIMENSION_MISMATCH');
    await b.vectors.reset();
    expect(await a.vectors.dimensions()).toBeNull();
    expect(await a.vectors.count(G1, 'fact')).toBe(0);
    await a.vectors.upsert([vectorItem('v3', unitVector(3, 16))]);
    const hits = await b.vectors.search({ kind: 'fact', guildId: G1, vector: unitVector(3, 16), limit: 3 });
    expect(hits.map((h) => h.id)).toEqual(['v3']);
    expect(hits[0]?.score).toBeCloseTo(1, 5);
    await a.close();
    await b.close();
  });

  it('serves limits above the KNN cap with an exact scan', async () => {
    const store = createSqliteStore({ path: ':memory:' });
    const items = Array.from({ length: 4200 }, (_, i) => vectorItem(`v${i}`, unitVector(i + 1, 8)));
    await store.vectors.upsert(items);
    const q = unitVector(99_999, 8);
    const all = await store.vectors.search({ kind: 'fact', guildId: G1, vector: q, limit: 5000 });
    expect(all).toHaveLength(4200);
    const top = await store.vectors.search({ kind: 'fact', guildId: G1, vector: q, limit: 10 });
    expect(all.slice(0, 10).map((h) => h.id)).toEqual(top.map((h) => h.id));
    await store.close();
  });
});
