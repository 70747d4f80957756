import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemory, DEFAULT_STORAGE, type LogEvent, MemoryError } from '@permafrost/core';
import { createSqliteStore } from '@permafrost/store-sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const GUILD = '900000000000000001';
const message = (n: number) => ({
  messageId: String(910000000000000000n + BigInt(n)),
  guildId: GUILD,
  channelId: '900000000000000002',
  authorId: '900000000000000003',
  content: 'I keep a sourdough starter named Gerald on my kitchen shelf',
  createdAt: new Date('2026-11-02T10:00:00Z'),
});

async function failure(promise: Promise<unknown>): Promise<MemoryError> {
  try {
    await promise;
  } catch (error) {
    if (MemoryError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

/** A fresh folder per test; the working directory is restored after each. */
let dir: string;
let cwd: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'permafrost-open-'));
  cwd = process.cwd();
});
afterEach(() => {
  process.chdir(cwd);
  rmSync(dir, { recursive: true, force: true });
});

describe('opening the SQLite file', () => {
  it('creates missing parent folders', async () => {
    const path = join(dir, 'var', 'lib', 'mybot', 'memory.db');
    const store = createSqliteStore({ path });
    await store.setup();
    await store.ping();
    await store.close();
    expect(existsSync(path)).toBe(true);
  });

  it('names the folder and the OS error when the folder cannot be created', async () => {
    writeFileSync(join(dir, 'plain-file'), 'x');
    const folder = join(dir, 'plain-file', 'sub');
    const store = createSqliteStore({ path: join(folder, 'memory.db') });
    const e = await failure(store.setup());
    expect(e.code).toBe('STORE_UNAVAILABLE');
    expect(e.message).toContain(`cannot create the folder ${folder}`);
    expect(e.message).toMatch(/\((ENOTDIR|EEXIST): /);
    await store.close();
  });

  it('names the path and the driver code when the file cannot be opened', async () => {
    const path = join(dir, 'is-a-folder.db');
    mkdirSync(path);
    const store = createSqliteStore({ path });
    const e = await failure(store.ping());
    expect(e.code).toBe('STORE_UNAVAILABLE');
    expect(e.message).toContain(`cannot open the SQLite database ${path}`);
    expect(e.message).toContain('SQLITE_CANTOPEN');
    await store.close();
  });

  it('keeps the specific code of a damaged file and adds the path', async () => {
    const path = join(dir, 'garbage.db');
    writeFileSync(path, Buffer.alloc(8192, 0x5a));
    const store = createSqliteStore({ path });
    const e = await failure(store.setup());
    expect(e.code).toBe('STORE_CORRUPT');
    expect(e.message).toContain(path);
    expect(e.message).toContain('SQLITE_NOTADB');
    await store.close();
  });
});

describe('a memory whose SQLite file cannot open', () => {
  it('start() fails with the path and reason; observe, health and the log report the same', async () => {
    const path = join(dir, 'is-a-folder.db');
    mkdirSync(path);
    const events: LogEvent[] = [];
    const memory = createMemory(
      { storage: `sqlite://${path}`, llm: null, workers: { enabled: false } },
      { logger: (e) => events.push(e) },
    );
    const e = await failure(memory.start());
    expect(e.code).toBe('STORE_UNAVAILABLE');
    expect(e.message).toContain(path);
    expect(e.message).toContain('SQLITE_CANTOPEN');
    const receipt = await memory.observe(message(1));
    expect(receipt).toMatchObject({ status: 'rejected', reason: 'storage_unavailable' });
    expect(receipt.detail).toBe(`STORE_UNAVAILABLE: ${e.message}`);
    expect(receipt.detail).not.toContain('sourdough');
    const health = await memory.ops.health();
    expect(health.status).toBe('down');
    expect(health.components).toContainEqual({
      component: 'storage',
      status: 'down',
      detail: `STORE_UNAVAILABLE: ${e.message}`,
    });
    const logged = events.filter((x) => x.event === 'memory.start_failed');
    expect(logged.length).toBeGreaterThan(0);
    expect(String((logged[0]?.error as Error | undefined)?.message)).toContain(path);
    await memory.close();
  });
});

describe('default storage', () => {
  beforeEach(() => process.chdir(dir));

  it('is ./permafrost.db in the working directory', async () => {
    const memory = createMemory({ llm: null, workers: { enabled: false } });
    expect(memory.config.storage).toEqual({ url: DEFAULT_STORAGE, scheme: 'sqlite' });
    expect(DEFAULT_STORAGE).toBe('sqlite://./permafrost.db');
    expect(await memory.observe(message(1))).toMatchObject({ status: 'accepted' });
    await memory.close();
    expect(existsSync(join(dir, 'permafrost.db'))).toBe(true);
  });

  it('reads two slashes as relative and three as absolute', async () => {
    const relative = createMemory({
      storage: 'sqlite://data/bot.db',
      llm: null,
      workers: { enabled: false },
    });
    expect(await relative.observe(message(2))).toMatchObject({ status: 'accepted' });
    await relative.close();
    expect(existsSync(join(dir, 'data', 'bot.db'))).toBe(true);
    const absolutePath = join(dir, 'abs', 'bot.db');
    const absolute = createMemory({
      storage: `sqlite://${absolutePath}`,
      llm: null,
      workers: { enabled: false },
    });
    expect(absolute.config.storage.url).toBe(`sqlite:///${absolutePath.slice(1)}`);
    expect(await absolute.observe(message(3))).toMatchObject({ status: 'accepted' });
    await absolute.close();
    expect(existsSync(absolutePath)).toBe(true);
  });
});

describe('readOnly: true', () => {
  it('a missing file is NOT_FOUND and nothing is created', async () => {
    const path = join(dir, 'sub', 'typo.db');
    const store = createSqliteStore({ path, readOnly: true });
    const e = await failure(store.setup());
    expect(e.code).toBe('NOT_FOUND');
    expect(e.message).toBe(
      `no SQLite database at ${path} (opened read-only, so nothing was created; check the path)`,
    );
    await store.close();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('reads an existing file and refuses writes with STORE_READ_ONLY', async () => {
    const path = join(dir, 'memory.db');
    const writer = createMemory({ storage: `sqlite://${path}`, llm: null, workers: { enabled: false } });
    await writer.facts.remember({
      guildId: GUILD,
      subjectId: '900000000000000003',
      text: 'Keeps bees on the roof of her building',
    });
    await writer.close();
    const store = createSqliteStore({ path, readOnly: true });
    await store.setup();
    expect(await store.admin.listGuildIds()).toEqual([GUILD]);
    expect((await failure(store.meta.setMeta('x', 'y'))).code).toBe('STORE_READ_ONLY');
    await store.close();
    const reader = createMemory(
      { storage: `sqlite://${path}`, llm: null, workers: { enabled: false } },
      { store: createSqliteStore({ path, readOnly: true }) },
    );
    expect((await reader.admin.exportGuild({ guildId: GUILD })).facts.map((f) => f.text)).toEqual([
      'Keeps bees on the roof of her building',
    ]);
    await reader.close();
  });
});
