import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { G1, unitVector } from '@permafrost/store-conformance';
import { createSqliteStore } from '@permafrost/store-sqlite';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const DIMS = 8;

/** Writes vectors in the layout of earlier versions: one vec0 table for both kinds. */
function writeLegacyVectors(
  path: string,
  items: { id: string; kind: string; subject: string | null }[],
): void {
  const db = new Database(path);
  sqliteVec.load(db);
  db.exec(`CREATE VIRTUAL TABLE vec_items USING vec0(
    item_id INTEGER PRIMARY KEY, guild_id TEXT PARTITION KEY, kind TEXT PARTITION KEY,
    embedding FLOAT[${DIMS}] distance_metric=cosine, subject INTEGER, is_server BOOLEAN, active BOOLEAN,
    chunk_size=128)`);
  db.prepare('INSERT INTO vector_meta (id, dims) VALUES (1, ?)').run(DIMS);
  const ref = (s: string | null): bigint => {
    if (s === null) return 0n;
    const found = db.prepare('SELECT ref FROM vector_subjects WHERE subject_id = ?').get(s) as
      | { ref: number }
      | undefined;
    return found
      ? BigInt(found.ref)
      : BigInt(db.prepare('INSERT INTO vector_subjects (subject_id) VALUES (?)').run(s).lastInsertRowid);
  };
  items.forEach((it, i) => {
    const rowId = BigInt(
      db.prepare('INSERT INTO vector_ids (guild_id, kind, item_id) VALUES (?, ?, ?)').run(G1, it.kind, it.id)
        .lastInsertRowid,
    );
    db.prepare(
      'INSERT INTO vec_items (item_id, guild_id, kind, embedding, subject, is_server, active) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ).run(rowId, G1, it.kind, unitVector(i + 1, DIMS), ref(it.subject), it.subject === null ? 1n : 0n, 1n);
  });
  db.close();
}

describe('sharded vector tables', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'permafrost-shards-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('moves vectors of the single-table layout into the sharded tables at setup', async () => {
    const path = join(dir, 'legacy.db');
    const fresh = createSqliteStore({ path });
    await fresh.setup();
    await fresh.close();
    const items = Array.from({ length: 60 }, (_, i) => ({
      id: `i${i}`,
      kind: i % 5 === 0 ? 'message' : 'fact',
      subject: i % 7 === 0 ? null : `u${i % 20}`,
    }));
    writeLegacyVectors(path, items);
    const store = createSqliteStore({ path });
    await store.setup();
    const q = unitVector(4, DIMS);
    const facts = await store.vectors.search({ kind: 'fact', guildId: G1, vector: q, limit: 100 });
    expect(facts.map((h) => h.id).sort()).toEqual(
      items
        .filter((it) => it.kind === 'fact')
        .map((it) => it.id)
        .sort(),
    );
    expect(facts[0]).toMatchObject({ id: 'i3' });
    expect(facts[0]?.score).toBeCloseTo(1, 4);
    const scoped = await store.vectors.search({
      kind: 'fact',
      guildId: G1,
      vector: q,
      limit: 100,
      subjectIds: ['u3'],
    });
    expect(scoped.map((h) => h.id).sort()).toEqual(['i23', 'i3', 'i43']);
    const server = await store.vectors.search({
      kind: 'fact',
      guildId: G1,
      vector: q,
      limit: 100,
      serverOnly: true,
    });
    expect(server.map((h) => h.id).sort()).toEqual(['i14', 'i21', 'i28', 'i42', 'i49', 'i56', 'i7']);
    expect(await store.vectors.count(G1, 'message')).toBe(12);
    const messages = await store.vectors.search({ kind: 'message', guildId: G1, vector: q, limit: 100 });
    expect(messages).toHaveLength(12);
    await store.vectors.upsert([
      { kind: 'fact', id: 'new', guildId: G1, subjectId: 'u3', active: true, vector: unitVector(99, DIMS) },
    ]);
    expect(await store.vectors.count(G1, 'fact')).toBe(49);
    await store.close();
    const db = new Database(path);
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE name LIKE 'vec_%' AND type = 'table'")
      .all();
    expect(tables.map((t) => (t as { name: string }).name)).not.toContain('vec_items');
    db.close();
  });
});
