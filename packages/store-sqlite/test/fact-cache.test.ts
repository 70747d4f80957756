import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Fact, MemoryStore } from '@permafrost/core';
import { importSnapshot } from '@permafrost/core/internal';
import { G1, makeFact, makeLink } from '@permafrost/store-conformance';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteConnection } from '../src/connection.js';
import { FactCache } from '../src/fact-cache.js';
import { FactTable } from '../src/fact-table.js';
import { createSqliteStore } from '../src/index.js';
import { FACT_CHANGES_KEPT } from '../src/migrations/010-fact-epochs.js';
import { SqliteFactStore } from '../src/sqlite-fact-store.js';

const G2 = 'guild-2';
const strongest = (store: MemoryStore, guildId = G1) => store.facts.topStrength({ guildId }, 10);
const texts = (facts: readonly Fact[]) => facts.map((f) => f.text).sort();

describe('decoded facts kept between reads', () => {
  let dir: string;
  let path: string;
  let store: MemoryStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'permafrost-fact-cache-'));
    path = join(dir, 'memory.db');
    store = createSqliteStore({ path });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Another process on the same file: a plain connection, no Permafrost code. */
  function elsewhere<T>(fn: (db: Database.Database) => T): T {
    const db = new Database(path);
    try {
      return fn(db);
    } finally {
      db.close();
    }
  }

  it('serves a repeated read from memory, and every kind of change from any connection ends that', async () => {
    const a = makeFact({ text: 'likes tea' });
    const b = makeFact({ text: 'plays chess' });
    await store.facts.insert([a, b]);
    const [first] = await store.facts.get(G1, [a.id]);
    const [again] = await store.facts.get(G1, [a.id]);
    expect(again).toBe(first);
    expect((await strongest(store)).find((f) => f.id === a.id)).toBe(first);

    // An update that leaves the version alone (as erasure's source rewrite does), elsewhere.
    elsewhere((db) => db.prepare("UPDATE facts SET text = 'likes coffee' WHERE id = ?").run(a.id));
    expect((await store.facts.get(G1, [a.id]))[0]?.text).toBe('likes coffee');
    expect(texts(await strongest(store))).toEqual(['likes coffee', 'plays chess']);

    elsewhere((db) => db.prepare('DELETE FROM facts WHERE id = ?').run(b.id));
    expect(await store.facts.get(G1, [b.id])).toEqual([]);
    expect(texts(await strongest(store))).toEqual(['likes coffee']);

    const c = makeFact({ text: 'runs marathons' });
    const other = createSqliteStore({ path });
    await other.facts.insert([c]);
    await other.close();
    expect(texts(await strongest(store))).toEqual(['likes coffee', 'runs marathons']);

    // This store's own writes: touch (no version change) and update.
    const before = (await store.facts.get(G1, [c.id]))[0];
    await store.facts.touch(G1, [c.id], new Date('2030-01-01T00:00:00Z'));
    const touched = (await store.facts.get(G1, [c.id]))[0];
    expect(touched).not.toBe(before);
    expect(touched?.lastReinforcedAt.toISOString()).toBe('2030-01-01T00:00:00.000Z');
  });

  it('keeps nothing read inside a write transaction that rolls back, even when the row id and counter come back', async () => {
    const a = makeFact({ text: 'kept fact', strength: 0.9 });
    await store.facts.insert([a]);
    expect(texts(await strongest(store))).toEqual(['kept fact']);
    const rolledBack = makeFact({ text: 'never committed', strength: 0.5 });
    await expect(
      store.transaction(async () => {
        await store.facts.insert([rolledBack]);
        expect(texts(await strongest(store))).toEqual(['kept fact', 'never committed']);
        expect((await store.facts.get(G1, [rolledBack.id]))[0]?.text).toBe('never committed');
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    // The next fact takes the rolled-back row id, and the guild's counter moves to the same value.
    const replacement = makeFact({ text: 'committed instead', strength: 0.5 });
    await store.facts.insert([replacement]);
    expect(texts(await strongest(store))).toEqual(['committed instead', 'kept fact']);
    expect(await store.facts.get(G1, [rolledBack.id])).toEqual([]);
  });

  it('a change to one fact drops only that one: the others stay kept', async () => {
    const a = makeFact({ text: 'likes tea' });
    const b = makeFact({ text: 'plays chess' });
    await store.facts.insert([a, b]);
    const [keptA, keptB] = await store.facts.get(G1, [a.id, b.id]);
    elsewhere((db) => db.prepare("UPDATE facts SET text = 'likes coffee' WHERE id = ?").run(b.id));
    const [againA, againB] = await store.facts.get(G1, [a.id, b.id]);
    expect(againA).toBe(keptA);
    expect(againB).not.toBe(keptB);
    expect(againB?.text).toBe('likes coffee');
    elsewhere((db) => db.prepare('DELETE FROM facts WHERE id = ?').run(a.id));
    expect(await store.facts.get(G1, [a.id, b.id])).toEqual([againB]);
  });

  it('starts over when the change log no longer reaches back to what it kept', async () => {
    const a = makeFact({ text: 'likes tea' });
    const b = makeFact({ text: 'plays chess' });
    await store.facts.insert([a, b]);
    const [keptA] = await store.facts.get(G1, [a.id]);
    // More changes than the log keeps, all to b, in another guild's absence of reads.
    elsewhere((db) => {
      const touch = db.prepare('UPDATE facts SET strength = ? WHERE id = ?');
      db.transaction(() => {
        for (let i = 0; i <= FACT_CHANGES_KEPT; i++) touch.run(1 + i / 10_000, b.id);
      })();
    });
    const [againA] = await store.facts.get(G1, [a.id]);
    expect(againA).not.toBe(keptA);
    expect(againA).toEqual(keptA);
  });

  it("serves a node's links from memory until a link or a linked fact changes anywhere", async () => {
    const a = makeFact({ subjectId: 'u1', text: 'likes tea' });
    const b = makeFact({ subjectId: 'u1', text: 'plays chess' });
    await store.facts.insert([a, b]);
    await store.graph.addLinks([makeLink(a), makeLink(b)]);
    const node = { type: 'user', id: 'u1' } as const;
    const read = () => store.graph.linksForNodes(G1, [node], { limitPerNode: 10 });
    const first = await read();
    expect(first.map((l) => l.factId).sort()).toEqual([a.id, b.id].sort());
    expect((await read())[0]).toBe(first[0]);

    // New links from another store object on the file (another process runs the same code).
    const c = makeFact({ subjectId: 'u1', text: 'runs marathons' });
    const other = createSqliteStore({ path });
    await other.facts.insert([c]);
    await other.graph.addLinks([makeLink(c)]);
    await other.close();
    expect((await read()).map((l) => l.factId).sort()).toEqual([a.id, b.id, c.id].sort());

    elsewhere((db) => db.prepare('DELETE FROM links WHERE fact_id IN (?, ?)').run(a.id, c.id));
    expect((await read()).map((l) => l.factId)).toEqual([b.id]);
    // Retiring the fact (a fact change, not a link change) hides its link from active reads.
    elsewhere((db) => db.prepare('UPDATE facts SET valid_until = 1 WHERE id = ?').run(b.id));
    expect(await read()).toEqual([]);
    expect((await store.graph.linksForNodes(G1, [node], { limitPerNode: 10, validity: 'any' })).length).toBe(
      1,
    );
  });

  it("a guild import's new links reach a node's kept list", async () => {
    const source = createSqliteStore({ path: join(dir, 'source.db') });
    const a = makeFact({ subjectId: 'u1', text: 'likes tea' });
    await source.facts.insert([a]);
    await source.graph.addLinks([makeLink(a)]);
    const snapshot = await source.admin.exportGuild(G1);
    await source.close();
    const read = () => store.graph.linksForNodes(G1, [{ type: 'user', id: 'u1' }], { limitPerNode: 10 });
    expect(await read()).toEqual([]);
    await importSnapshot(store, snapshot);
    expect((await read()).map((l) => l.factId)).toEqual([a.id]);
  });

  it('keeps guilds apart: a change in one leaves the other kept', async () => {
    const a = makeFact({ text: 'first guild' });
    const b = makeFact({ guildId: G2, text: 'second guild' });
    await store.facts.insert([a, b]);
    const [keptB] = await store.facts.get(G2, [b.id]);
    expect(await store.facts.get(G1, [b.id])).toEqual([]);
    expect(await store.facts.get(G2, [a.id])).toEqual([]);
    await store.facts.insert([makeFact({ text: 'another first-guild fact' })]);
    expect((await store.facts.get(G2, [b.id]))[0]).toBe(keptB);
  });

  it('hands out frozen facts: a caller cannot change what the next caller reads', async () => {
    const a = makeFact({ text: 'likes tea' });
    await store.facts.insert([a]);
    const [kept] = await store.facts.get(G1, [a.id]);
    expect(Object.isFrozen(kept)).toBe(true);
    expect(() => {
      (kept as { text: string }).text = 'tampered';
    }).toThrow(TypeError);
    expect(() => (kept as unknown as { sources: unknown[] }).sources.push({})).toThrow(TypeError);
    expect((await store.facts.get(G1, [a.id]))[0]?.text).toBe('likes tea');
  });
});

describe('FactCache memory', () => {
  it("lets go of a guild's kept facts when this store commits a change to them, not at the next read", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'permafrost-fact-cache-commit-'));
    const connection = new SqliteConnection({ path: join(dir, 'memory.db'), busyTimeoutMs: 1000 });
    const cache = new FactCache(connection);
    const facts = new SqliteFactStore(connection, new FactTable(connection), cache);
    try {
      const a = makeFact({ text: 'likes tea' });
      await facts.insert([a, makeFact({ guildId: G2 })]);
      await facts.get(G1, [a.id]);
      const one = cache.bytes;
      expect(one).toBeGreaterThan(0);
      await facts.topStrength({ guildId: G2 }, 5);
      expect(cache.bytes).toBe(2 * one);
      // A write that leaves facts alone keeps them.
      await connection.write(() =>
        connection.stmt("INSERT INTO opt_outs (guild_id, user_id, at) VALUES (?, 'u9', 0)").run(G1),
      );
      expect(cache.bytes).toBe(2 * one);
      await connection.write(() => connection.stmt('DELETE FROM facts WHERE id = ?').run(a.id));
      expect(cache.bytes).toBe(one);
      await connection.transaction(async () => {
        await connection.write(() => connection.stmt('DELETE FROM facts WHERE guild_id = ?').run(G2));
        expect(cache.bytes).toBe(one); // not before the commit
      });
      expect(cache.bytes).toBe(0);
    } finally {
      await connection.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('drops the least recently read guilds first; a guild that fills it alone, or holds too many facts, takes no more', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'permafrost-fact-cache-cap-'));
    const store = createSqliteStore({ path: join(dir, 'memory.db') });
    const connection = new SqliteConnection({ path: join(dir, 'memory.db'), busyTimeoutMs: 1000 });
    try {
      // Guild g4 holds three fact rows: more than a three-fact capacity keeps (four fifths of it).
      await store.facts.insert([1, 2, 3].map(() => makeFact({ guildId: 'g4' })));
      await connection.run(() => {
        const fact = (guildId: string) => makeFact({ guildId });
        const full = new FactCache(connection, 3 * 1600); // three facts
        const one = full.guild('g1');
        one.add(1, fact('g1'));
        one.add(2, fact('g1'));
        full.guild('g2').add(3, fact('g2'));
        expect(full.guild('g1').byRow.size).toBe(2); // g1 is now the most recently used
        full.guild('g2').add(4, fact('g2')); // a fourth fact: g1, used before g2, goes
        expect(full.guild('g2').byRow.size).toBe(2);
        expect(full.guild('g1').byRow.size).toBe(0);

        const alone = new FactCache(connection, 3 * 1600);
        const big = alone.guild('g3');
        for (let row = 1; row <= 5; row++) big.add(row, fact('g3'));
        expect([...alone.guild('g3').byRow.keys()]).toEqual([1, 2, 3, 4]); // the fourth filled it
        alone.guild('g3').add(6, fact('g3'));
        expect(alone.guild('g3').byRow.size).toBe(4);

        const tooBig = new FactCache(connection, 3 * 1600);
        tooBig.guild('g4').add(1, fact('g4'));
        expect(tooBig.guild('g4').byRow.size).toBe(0);
        expect(tooBig.bytes).toBe(0);
      });
    } finally {
      await connection.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
