import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createMemory, type ExtractionFailed, type Memory, MemoryError } from '@permafrost/core';
import { createSqliteStore } from '@permafrost/store-sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChild } from './support/children.js';
import { ensureBuilt, ROOT, tempDir } from './support/paths.js';
import { CONSISTENT, Database, inspectSqlite, openRaw, type RawDatabase } from './support/sqlite-inspect.js';
import { CHANNEL_A, chat, GUILD_A, marker, member } from './support/world.js';

/**
 * Storage faults (issue #12 §4) on the SQLite store: a file locked by another process past the
 * busy timeout, a full database, a read-only file. Observe never throws (it rejects with
 * `storage_unavailable`), writes fail with a documented MemoryError code, recall / promptContext
 * degrade without throwing, and afterwards the file is intact with every earlier row.
 */

const STORE_DIR = join(ROOT, 'packages', 'store-sqlite');
const ALICE = member(1);
const BOB = member(2);
const BUSY_MS = 150;

let tmp: ReturnType<typeof tempDir>;
beforeAll(() => {
  ensureBuilt();
  tmp = tempDir('storage');
}, 120_000);
afterAll(() => tmp?.cleanup());

let seq = 0;
const nextId = () => String(600000000000000000n + BigInt(++seq));

/** The code of a rejected call (fails the test when the call resolves or throws something else). */
async function codeOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    if (MemoryError.is(error)) return error.code;
    throw error;
  }
  throw new Error('expected a rejection');
}

interface Seeded {
  readonly memory: Memory;
  readonly path: string;
  readonly failures: ExtractionFailed[];
  /** Fact texts stored before the fault. */
  readonly facts: string[];
}

/** A memory on its own file holding manual facts, extracted facts and conversation rows. */
async function seeded(name: string, busyTimeoutMs = BUSY_MS): Promise<Seeded> {
  const path = join(tmp.dir, `${name}.db`);
  const memory = createMemory(
    {
      storage: `sqlite://${path}`,
      llm: 'heuristic',
      workers: { enabled: false },
      access: { requireAudience: false },
      extraction: { digestEveryFacts: 0 },
    },
    { store: createSqliteStore({ path, busyTimeoutMs }) },
  );
  const failures: ExtractionFailed[] = [];
  memory.events.on('ExtractionFailed', (e) => failures.push(e));
  await memory.facts.remember({
    guildId: GUILD_A,
    subjectId: ALICE.id,
    text: 'Alice keeps bees on her balcony in Porto',
  });
  await memory.facts.remember({
    guildId: GUILD_A,
    subjectId: BOB.id,
    text: 'Bob restores old pinball machines',
  });
  for (const content of ['I live in Lisbon and I work at a bakery', 'I love hiking in the Alps every summer'])
    expect((await memory.observe(chat(nextId(), ALICE, content))).status).toBe('accepted');
  await memory.flush();
  const facts = (await memory.admin.exportGuild({ guildId: GUILD_A })).facts.map((f) => f.text).sort();
  expect(facts.length).toBeGreaterThanOrEqual(3);
  return { memory, path, failures, facts };
}

const factTexts = async (memory: Memory) =>
  (await memory.admin.exportGuild({ guildId: GUILD_A })).facts.map((f) => f.text).sort();

/** The calls that must keep working (reads) or degrade without throwing. */
async function readsNeverThrow(memory: Memory) {
  const recall = await memory.recall({ guildId: GUILD_A, text: 'who keeps bees', subjectIds: [ALICE.id] });
  const prompt = await memory.promptContext({
    guildId: GUILD_A,
    askerId: ALICE.id,
    text: 'what do you know about me?',
  });
  const ctx = await memory.context({
    guildId: GUILD_A,
    channelId: CHANNEL_A,
    askerId: ALICE.id,
    text: 'remember when',
    mode: 'deep',
  });
  const cited = await memory.cite('Alice keeps bees.', prompt);
  return { recall, prompt, ctx, cited };
}

describe('the file locked by another process past the busy timeout', () => {
  it('a writer holds BEGIN EXCLUSIVE: observe rejects, writes fail STORE_BUSY, reads go on', async () => {
    const s = await seeded('locked-write');
    const locker = startChild('locker', { path: s.path, storeDir: STORE_DIR, mode: 'write' });
    await locker.waitFor((m) => m.event === 'locked');
    const message = chat(nextId(), BOB, 'I restore pinball machines in my garage every weekend');
    try {
      expect(await s.memory.observe(message)).toEqual({
        messageId: message.messageId,
        status: 'rejected',
        reason: 'storage_unavailable',
        detail: expect.stringMatching(/^STORE_BUSY: /),
      });
      expect(
        await codeOf(
          s.memory.facts.remember({ guildId: GUILD_A, subjectId: BOB.id, text: 'Bob owns a tandem bicycle' }),
        ),
      ).toBe('STORE_BUSY');
      expect(
        await codeOf(s.memory.admin.setOptOut({ guildId: GUILD_A, userId: BOB.id, optedOut: true })),
      ).toBe('STORE_BUSY');
      expect(await codeOf(s.memory.flush())).toBe('STORE_BUSY');
      expect(await codeOf(s.memory.ops.runPending())).toBe('STORE_BUSY');
      // WAL readers are never blocked by a writer: memory keeps answering with what it knows.
      const { recall, prompt, ctx, cited } = await readsNeverThrow(s.memory);
      expect(recall.warnings).toEqual([]);
      expect(recall.facts.map((f) => f.fact.text)).toContain('Alice keeps bees on her balcony in Porto');
      expect(prompt.injectionBlock).toContain('bees');
      expect(ctx.recent.length).toBeGreaterThan(0);
      expect(cited.text).toBe('Alice keeps bees.');
      expect((await s.memory.ops.health()).status).not.toBe('down');
      expect(await factTexts(s.memory)).toEqual(s.facts);
    } finally {
      // The holder dies mid-transaction: its uncommitted write must vanish.
      locker.kill();
      await locker.exit;
    }
    await expectRecovered(s, message.messageId);
  }, 60_000);

  it('a process holds the file in exclusive locking mode: even reads are refused; nothing throws', async () => {
    const first = await seeded('locked-exclusive');
    await first.memory.close();
    const locker = startChild('locker', { path: first.path, storeDir: STORE_DIR, mode: 'exclusive' });
    await locker.waitFor((m) => m.event === 'locked');
    const memory = createMemory(
      {
        storage: `sqlite://${first.path}`,
        llm: 'heuristic',
        workers: { enabled: false },
        access: { requireAudience: false },
      },
      { store: createSqliteStore({ path: first.path, busyTimeoutMs: BUSY_MS }) },
    );
    const s: Seeded = { ...first, memory };
    const message = chat(nextId(), BOB, 'I restore pinball machines in my garage every weekend');
    try {
      expect(await memory.observe(message)).toEqual({
        messageId: message.messageId,
        status: 'rejected',
        reason: 'storage_unavailable',
        detail: expect.stringMatching(/^STORE_BUSY: /),
      });
      expect(
        await codeOf(
          memory.facts.remember({ guildId: GUILD_A, subjectId: BOB.id, text: 'Bob owns a tandem bicycle' }),
        ),
      ).toBe('STORE_BUSY');
      expect(await codeOf(memory.flush())).toBe('STORE_BUSY');
      expect(await codeOf(memory.admin.exportGuild({ guildId: GUILD_A }))).toBe('STORE_BUSY');
      const { recall, prompt, ctx, cited } = await readsNeverThrow(memory);
      expect(recall).toEqual({ facts: [], warnings: ['store_unavailable'], degradedChannels: [] });
      expect(prompt.injectionBlock).toBe('');
      expect(prompt.warnings).toContain('store_unavailable');
      expect(ctx.warnings).toContain('store_unavailable');
      expect(cited.text).toBe('Alice keeps bees.');
      const health = await memory.ops.health();
      expect(health.status).toBe('down');
      expect(health.components).toContainEqual({
        component: 'storage',
        status: 'down',
        detail: expect.stringMatching(/^STORE_BUSY: cannot open the SQLite database .*SQLITE_BUSY/),
      });
    } finally {
      locker.kill();
      await locker.exit;
    }
    // The same instance starts on its next call once the lock is gone.
    await expectRecovered(s, message.messageId);
  }, 60_000);
});

/** After the fault: the re-sent message is stored, writes work, nothing was lost or half-written. */
async function expectRecovered(s: Seeded, messageId: string) {
  const again = chat(messageId, BOB, 'I restore pinball machines in my garage every weekend');
  expect((await s.memory.observe(again)).status).toBe('accepted');
  await s.memory.facts.remember({ guildId: GUILD_A, subjectId: BOB.id, text: 'Bob owns a tandem bicycle' });
  await s.memory.flush();
  expect(s.failures).toEqual([]);
  const after = await factTexts(s.memory);
  for (const t of s.facts) expect(after).toContain(t);
  expect(after).toContain('Bob owns a tandem bicycle');
  await s.memory.close();
  expect(inspectSqlite(s.path)).toMatchObject(CONSISTENT);
  const raw = openRaw(s.path, { readonly: true });
  try {
    expect(raw.prepare("SELECT value FROM meta WHERE key = 'locker.uncommitted'").get()).toBeUndefined();
    expect(raw.prepare("SELECT name FROM sqlite_master WHERE name = 'locker_probe'").get()).toBeUndefined();
  } finally {
    raw.close();
  }
}

/**
 * Disk full, portably: SQLite's `max_page_count` caps the database on the store's own connection, so
 * every write that needs a new page fails with SQLITE_FULL exactly as on a full disk (same result
 * code, same code path in the pager). The connection is reached through the driver: better-sqlite3
 * is loaded once per process, and its `pragma` is wrapped to hand over the store's handle.
 */
function captureConnections(): { readonly dbs: RawDatabase[]; restore(): void } {
  const proto = (
    Database as unknown as { prototype: { pragma: (this: RawDatabase, ...a: unknown[]) => unknown } }
  ).prototype;
  const original = proto.pragma;
  const dbs: RawDatabase[] = [];
  proto.pragma = function (this: RawDatabase, ...a: unknown[]) {
    if (!dbs.includes(this)) dbs.push(this);
    return original.apply(this, a);
  };
  return {
    dbs,
    restore: () => {
      proto.pragma = original;
    },
  };
}

describe('a full database', () => {
  it('observe rejects, writes fail STORE_FULL, nothing half-written; after space returns all works', async () => {
    const capture = captureConnections();
    let s: Seeded;
    try {
      s = await seeded('full');
    } finally {
      capture.restore();
    }
    const db = capture.dbs.find((d) => d.open);
    expect(db).toBeDefined();
    const conn = db as RawDatabase;
    const pages = conn.pragma('page_count', { simple: true }) as number;
    conn.pragma(`max_page_count = ${pages}`);

    // Manual facts until the file cannot grow: the first refusal is STORE_FULL, and that fact is absent.
    let full: { code: string; word: string } | null = null;
    for (let i = 0; i < 400 && !full; i++) {
      const word = marker('full', i);
      try {
        await s.memory.facts.remember({
          guildId: GUILD_A,
          subjectId: BOB.id,
          text: `Bob keeps a ${word} notebook ${'with many pages '.repeat(20)}`.slice(0, 390),
        });
      } catch (error) {
        full = { code: MemoryError.is(error) ? error.code : String(error), word };
      }
    }
    expect(full?.code).toBe('STORE_FULL');
    const lost = full?.word as string;
    expect(JSON.stringify(await s.memory.admin.exportGuild({ guildId: GUILD_A }))).not.toContain(lost);

    // Observe: rejected, never thrown.
    let rejected = 0;
    for (let i = 0; i < 200 && rejected === 0; i++) {
      const r = await s.memory.observe(
        chat(nextId(), BOB, `${marker('fullmsg', i)} ${'I love long messages about pinball. '.repeat(200)}`),
      );
      if (r.status === 'rejected') {
        expect(r.reason).toBe('storage_unavailable');
        rejected++;
      }
    }
    expect(rejected).toBe(1);
    // Extraction cannot commit either; the messages stay pending (not lost, not dead), flush does not throw.
    await s.memory.flush();
    const { recall } = await readsNeverThrow(s.memory);
    expect(recall.facts.map((f) => f.fact.text)).toContain('Alice keeps bees on her balcony in Porto');
    expect((await s.memory.ops.health()).deadLetters).toBe(0);
    await s.memory.close({ drain: false });
    expect(inspectSqlite(s.path)).toMatchObject(CONSISTENT);

    // Space again (a fresh connection has no cap): the pending messages are extracted, nothing was lost.
    const memory = createMemory({
      storage: `sqlite://${s.path}`,
      llm: 'heuristic',
      workers: { enabled: false },
      access: { requireAudience: false },
    });
    await memory.flush();
    expect((await memory.ops.health()).pending).toBe(0);
    expect((await memory.ops.health()).deadLetters).toBe(0);
    const after = await factTexts(memory);
    for (const t of s.facts) expect(after).toContain(t);
    await memory.facts.remember({
      guildId: GUILD_A,
      subjectId: BOB.id,
      text: `Bob keeps a ${lost} notebook`,
    });
    await memory.close();
    expect(inspectSqlite(s.path)).toMatchObject(CONSISTENT);
  }, 60_000);

  const canMount = (() => {
    if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
    try {
      execFileSync('unshare', ['-m', 'true'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();

  // A real ENOSPC from a 1 MiB tmpfs, where the environment allows mounting (root here; CI may not be).
  it.runIf(canMount)(
    'on a real full filesystem (1 MiB tmpfs): STORE_FULL / storage_unavailable, intact after growing it',
    async () => {
      const mnt = join(tmp.dir, 'tmpfs');
      mkdirSync(mnt);
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mnt]);
      try {
        const path = join(mnt, 'tiny.db');
        const memory = createMemory({
          storage: `sqlite://${path}`,
          llm: 'heuristic',
          workers: { enabled: false },
          access: { requireAudience: false },
        });
        await memory.facts.remember({
          guildId: GUILD_A,
          subjectId: ALICE.id,
          text: 'Alice keeps bees on her balcony in Porto',
        });
        let code: string | null = null;
        let i = 0;
        for (; i < 5_000 && code === null; i++) {
          try {
            await memory.facts.remember({
              guildId: GUILD_A,
              subjectId: BOB.id,
              text: `Bob keeps a ${marker('enospc', i)} notebook ${'with many pages '.repeat(20)}`.slice(
                0,
                390,
              ),
            });
          } catch (error) {
            code = MemoryError.is(error) ? error.code : String(error);
          }
        }
        expect(code).toBe('STORE_FULL');
        // The failed write may have been a large one (a new vector chunk); smaller writes can still
        // fit for a while. observe never throws: once nothing fits it rejects storage_unavailable.
        let r = await memory.observe(chat(nextId(), BOB, `${'a long message about pinball '.repeat(250)}`));
        for (let k = 0; k < 500 && r.status === 'accepted'; k++)
          r = await memory.observe(chat(nextId(), BOB, `${'a long message about pinball '.repeat(250)}`));
        expect(r).toMatchObject({ status: 'rejected', reason: 'storage_unavailable' });
        const recall = await memory.recall({ guildId: GUILD_A, text: 'bees', subjectIds: [ALICE.id] });
        expect(recall.facts.map((f) => f.fact.text)).toContain('Alice keeps bees on her balcony in Porto');
        execFileSync('mount', ['-o', 'remount,size=64m', mnt]);
        await memory.facts.remember({
          guildId: GUILD_A,
          subjectId: BOB.id,
          text: 'Bob owns a tandem bicycle',
        });
        expect(
          (await memory.facts.getAll({ guildId: GUILD_A, subjectId: BOB.id, limit: 1_000 })).length,
        ).toBe(i);
        await memory.close();
        expect(inspectSqlite(path)).toMatchObject(CONSISTENT);
      } finally {
        execFileSync('umount', ['-l', mnt]);
      }
    },
    60_000,
  );
});

describe('a read-only database file', () => {
  /** Runs the probe child on the file as an unprivileged user (root ignores file modes). */
  async function probe(path: string) {
    const asNobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    const child = startChild('probe', { path, guildId: GUILD_A, aliceId: ALICE.id, bobId: BOB.id }, asNobody);
    const exit = await child.exit;
    expect(exit.code, exit.stderr).toBe(0);
    return exit.messages.at(-1) as {
      results: Record<string, { ok: boolean; code?: string; value?: unknown }>;
    };
  }

  function makeReadOnly(dir: string) {
    for (const f of ['ro.db', 'ro.db-wal', 'ro.db-shm'])
      try {
        chmodSync(join(dir, f), 0o444);
      } catch {
        // absent
      }
    chmodSync(dir, 0o555);
    chmodSync(tmp.dir, 0o755);
  }
  function makeWritable(dir: string) {
    chmodSync(dir, 0o755);
    for (const f of ['ro.db', 'ro.db-wal', 'ro.db-shm'])
      try {
        chmodSync(join(dir, f), 0o644);
      } catch {
        // absent
      }
  }

  it.each([
    { variant: 'closed cleanly (no -wal/-shm)', leftovers: false },
    { variant: 'left by a killed writer (-wal/-shm present)', leftovers: true },
  ])(
    '$variant: observe rejects, writes fail STORE_READ_ONLY, reads never throw; intact afterwards',
    async ({ leftovers }) => {
      const dir = join(tmp.dir, leftovers ? 'ro-leftover' : 'ro-clean');
      mkdirSync(dir);
      const path = join(dir, 'ro.db');
      const memory = createMemory({
        storage: `sqlite://${path}`,
        llm: 'heuristic',
        workers: { enabled: false },
        access: { requireAudience: false },
      });
      await memory.facts.remember({
        guildId: GUILD_A,
        subjectId: ALICE.id,
        text: 'Alice keeps bees on her balcony in Porto',
      });
      expect(
        (await memory.observe(chat(nextId(), ALICE, 'I live in Lisbon and I work at a bakery'))).status,
      ).toBe('accepted');
      await memory.flush();
      const before = await factTexts(memory);
      await memory.close();
      if (leftovers) {
        // A writer process killed with the file open leaves its -wal and -shm behind.
        const child = startChild('locker', { path, storeDir: STORE_DIR, mode: 'write' });
        await child.waitFor((m) => m.event === 'locked');
        child.kill();
        await child.exit;
      }
      makeReadOnly(dir);
      try {
        const { results } = await probe(path);
        expect(results['observe']).toEqual({
          ok: true,
          value: { status: 'rejected', reason: 'storage_unavailable' },
        });
        expect(results['remember']).toEqual({ ok: false, code: 'STORE_READ_ONLY' });
        expect(results['setOptOut']).toEqual({ ok: false, code: 'STORE_READ_ONLY' });
        for (const read of ['recall', 'promptContext', 'context', 'cite', 'health'])
          expect(results[read]?.ok, read).toBe(true);
        if (leftovers) {
          // With the shared-memory file present SQLite can read a read-only WAL database.
          expect(results['recall']?.value).toMatchObject({
            texts: expect.arrayContaining(['Alice keeps bees on her balcony in Porto']),
            warnings: [],
          });
          expect(results['exportGuild']).toEqual({ ok: true, value: before });
        } else {
          // Without it nothing can be opened: reads degrade, they do not throw.
          expect(results['recall']?.value).toEqual({ texts: [], warnings: ['store_unavailable'] });
          expect(results['health']?.value).toBe('down');
          expect(results['exportGuild']).toEqual({ ok: false, code: 'STORE_READ_ONLY' });
        }
      } finally {
        makeWritable(dir);
      }
      const again = createMemory({
        storage: `sqlite://${path}`,
        llm: 'heuristic',
        workers: { enabled: false },
        access: { requireAudience: false },
      });
      expect(await factTexts(again)).toEqual(before);
      await again.facts.remember({ guildId: GUILD_A, subjectId: BOB.id, text: 'Bob owns a tandem bicycle' });
      await again.close();
      expect(inspectSqlite(path)).toMatchObject(CONSISTENT);
    },
    60_000,
  );
});
