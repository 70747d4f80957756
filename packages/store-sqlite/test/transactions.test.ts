import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getStoreFactory, purgeMember, resolveStoreFactory } from '@permafrost/core/internal';
import { G1, makeFact, makeMessage } from '@permafrost/store-conformance';
import { createSqliteStore, SQLITE_CAPABILITIES } from '@permafrost/store-sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteConnection } from '../src/connection.js';

describe('sqlite transactions and connections', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'permafrost-tx-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('holds calls from outside an open transaction until it ends', async () => {
    const store = createSqliteStore({ path: join(dir, 'gate.db') });
    const f = makeFact();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const order: string[] = [];
    const tx = store.transaction(async () => {
      await store.facts.insert([f]);
      order.push('inserted');
      await gate;
      order.push('committing');
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const outside = store.facts.get(G1, [f.id]).then((rows) => {
      order.push(`outside saw ${rows.length}`);
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(order).toEqual(['inserted']);
    release();
    await Promise.all([tx, outside]);
    expect(order).toEqual(['inserted', 'committing', 'outside saw 1']);
    await store.close();
  });

  it('rolls back a multi-statement port call together with the rest of the scope', async () => {
    const store = createSqliteStore({ path: ':memory:' });
    await expect(
      store.transaction(async () => {
        await store.queue.enqueueMany([makeMessage(), makeMessage(), makeMessage()], 100);
        await store.budgets.chargeTokens(G1, ['d:1', 'm:1'], 10);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await store.queue.counts(G1)).toEqual({ pending: 0, claimed: 0, processed: 0, dead: 0 });
    expect(await store.budgets.tokenUsage(G1, ['d:1'])).toEqual({ 'd:1': 0 });
    await store.close();
  });

  it('a failing statement inside a port call undoes only that call', async () => {
    const store = createSqliteStore({ path: ':memory:' });
    const a = makeFact();
    const b = makeFact();
    await store.transaction(async () => {
      await store.facts.insert([a]);
      await expect(store.facts.insert([b, makeFact({ id: a.id })])).rejects.toMatchObject({
        code: 'CONFLICT',
      });
    });
    expect((await store.facts.get(G1, [a.id, b.id])).map((f) => f.id)).toEqual([a.id]);
    await store.close();
  });

  it('defers the purge checkpoint to the end of an enclosing transaction', async () => {
    const path = join(dir, 'purge.db');
    const store = createSqliteStore({ path });
    await store.facts.insert([makeFact({ subjectId: 'zed', text: 'zed likes kites' })]);
    await store.transaction(async () => {
      await purgeMember(store, { guildId: G1, userId: 'zed', dryRun: false });
      expect(readFileSync(`${path}-wal`).length).toBeGreaterThan(0);
    });
    expect(readFileSync(`${path}-wal`).length).toBe(0);
    expect(await store.facts.list({ guildId: G1, limit: 5, validity: 'any' })).toEqual({
      items: [],
      nextCursor: null,
    });
    await store.close();
  });

  it('makes a second store object on the same file wait for the first one’s transaction', async () => {
    const path = join(dir, 'two-objects.db');
    const a = createSqliteStore({ path, busyTimeoutMs: 200 });
    const b = createSqliteStore({ path, busyTimeoutMs: 200 });
    await a.setup();
    await b.setup();
    const fa = makeFact({ text: 'written by a' });
    const fb = makeFact({ text: 'written by b' });
    const order: string[] = [];
    const tx = a.transaction(async () => {
      await a.facts.insert([fa]);
      // Longer than b's busy timeout: b must wait on the gate, not in SQLite's busy handler.
      await new Promise((resolve) => setTimeout(resolve, 400));
      order.push('a committed');
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    const write = b.facts.insert([fb]).then(() => order.push('b wrote'));
    await Promise.all([tx, write]);
    expect(order).toEqual(['a committed', 'b wrote']);
    expect((await b.facts.get(G1, [fa.id, fb.id])).length).toBe(2);
    await a.close();
    await b.close();
  });

  it('shares one file between store objects (separate connections)', async () => {
    const path = join(dir, 'shared.db');
    const a = createSqliteStore({ path });
    const b = createSqliteStore({ path });
    const f = makeFact({ text: 'seen by both' });
    await a.facts.insert([f]);
    expect((await b.facts.get(G1, [f.id]))[0]?.text).toBe('seen by both');
    await a.close();
    expect((await b.facts.get(G1, [f.id])).length).toBe(1);
    await b.close();
  });

  it('registers a factory for sqlite:// URLs on import', async () => {
    expect(SQLITE_CAPABILITIES).toEqual({
      transactions: 'atomic',
      nativeVectorSearch: true,
      multiProcess: true,
      physicalPurge: true,
      durable: true,
    });
    const factory = getStoreFactory('sqlite');
    expect(factory).toBeDefined();
    expect(await resolveStoreFactory('sqlite')).toBe(factory);
    const path = join(dir, 'from-url.db');
    const store = await (factory as NonNullable<typeof factory>)(`sqlite://${path}`, {});
    expect(store.name).toBe('sqlite');
    await store.facts.insert([makeFact()]);
    await store.close();
    expect(readFileSync(path).subarray(0, 15).toString()).toBe('SQLite format 3');
    const memory = await (factory as NonNullable<typeof factory>)('sqlite://:memory:', {});
    await memory.ping();
    await memory.close();
  });

  it('a failing after-commit listener is logged, and the committed write still succeeds', async () => {
    const events: { event: string }[] = [];
    const c = new SqliteConnection({
      path: join(dir, 'listener.db'),
      busyTimeoutMs: 1000,
      logger: (e) => events.push(e),
    });
    c.onCommitted(() => {
      throw new Error('listener failed');
    });
    try {
      await expect(
        c.write(() => c.stmt("INSERT INTO opt_outs (guild_id, user_id, at) VALUES ('g', 'u', 0)").run()),
      ).resolves.toBeDefined();
      await c.transaction(() => c.write(() => c.stmt("DELETE FROM opt_outs WHERE user_id = 'u'").run()));
      expect(events.filter((e) => e.event === 'sqlite.after_commit_failed')).toHaveLength(2);
      expect(await c.run(() => c.stmt('SELECT count(*) AS n FROM opt_outs').get())).toEqual({ n: 0 });
    } finally {
      await c.close();
    }
  });
});
