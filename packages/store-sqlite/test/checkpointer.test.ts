import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LogEvent } from '@permafrost/core';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteConnection } from '../src/connection.js';

/** Polls until `check` holds (background work lands on its own schedule), or fails the test. */
async function eventually(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const autocheckpoint = (c: SqliteConnection) => c.db.pragma('wal_autocheckpoint', { simple: true }) as number;
const size = (path: string) => statSync(path, { throwIfNoEntry: false })?.size ?? 0;

async function writeRows(c: SqliteConnection, from: number, n: number, value = 'x'): Promise<void> {
  for (let i = from; i < from + n; i++)
    await c.write(() => c.stmt('INSERT INTO meta (key, value) VALUES (?, ?)').run(`k${i}`, value));
}

/** Commits `n` small rows without waiting for them (overwrites of 8 keys: the file does not grow). */
function tick(c: SqliteConnection, n: number): void {
  for (let k = 0; k < n; k++)
    void c.write(() =>
      c.stmt('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(`tick${k % 8}`, 't'),
    );
}

/** Commits now and then until the writer has handed checkpoints over (it looks at each commit). */
async function untilHandedOver(c: SqliteConnection): Promise<void> {
  await eventually(() => {
    tick(c, 1);
    return autocheckpoint(c) === 0;
  }, 'the worker to take over');
}

describe('background WAL checkpoints', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'permafrost-ckpt-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a short-lived or in-memory connection keeps checkpointing on its own thread', async () => {
    const file = new SqliteConnection({ path: join(dir, 'small.db'), busyTimeoutMs: 1000 });
    await writeRows(file, 0, 100);
    expect(autocheckpoint(file)).toBe(4000);
    await file.close();

    const mem = new SqliteConnection({ path: ':memory:', busyTimeoutMs: 1000 });
    await writeRows(mem, 0, 2100);
    await new Promise((r) => setTimeout(r, 200));
    expect(autocheckpoint(mem)).toBe(4000);
    await mem.close();
  });

  it('a busy file hands checkpoints to a worker thread, which copies the WAL into the file', async () => {
    const path = join(dir, 'busy.db');
    const events: LogEvent[] = [];
    const c = new SqliteConnection({ path, busyTimeoutMs: 1000, logger: (e) => events.push(e) });
    await writeRows(c, 0, 2000);
    await untilHandedOver(c);
    // From here the writer never checkpoints itself below 64 MB of WAL: the file only grows if the
    // worker copies pages into it.
    const before = size(path);
    await writeRows(c, 2000, 1000, 'y'.repeat(2000));
    // The writer asks for a pass every 256 commits and ignores requests while one runs, so on a
    // loaded machine a pass may cover only the first frames. Later commits ask again, as a live bot's do.
    await eventually(
      () => {
        tick(c, 64);
        return size(path) > before + 1_000_000;
      },
      'the worker to copy frames into the file',
      60_000,
    );
    await c.close();
    expect(events.filter((e) => e.level !== 'info')).toEqual([]);

    const check = new Database(path, { readonly: true });
    expect(check.prepare("SELECT count(*) AS n FROM meta WHERE key LIKE 'k%'").get()).toEqual({ n: 3000 });
    check.close();
  });

  it('falls back to checkpointing on the writer thread when the worker cannot start', async () => {
    const path = join(dir, 'gone.db');
    const events: LogEvent[] = [];
    const c = new SqliteConnection({ path, busyTimeoutMs: 1000, logger: (e) => events.push(e) });
    await writeRows(c, 0, 1990);
    // The open connection keeps the unlinked file; the worker, opening by name, cannot.
    rmSync(path);
    // The writer notices the failure at its next commit after the worker gives up.
    let next = 1990;
    const lost = () => events.some((e) => e.event === 'sqlite.checkpointer_lost');
    const until = Date.now() + 10_000;
    while (!lost() && Date.now() < until) {
      await writeRows(c, next++, 1);
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(events.map((e) => e.event)).toContain('sqlite.checkpointer_lost');
    expect(autocheckpoint(c)).toBe(4000);
    await c.close();
  });

  it('keeps the WAL bounded while commits never pause', async () => {
    const path = join(dir, 'bounded.db');
    const c = new SqliteConnection({ path, busyTimeoutMs: 1000 });
    await writeRows(c, 0, 2000);
    await untilHandedOver(c);
    // ~8 KB rows: several WAL frames per commit, and passes never catch the tail of a growing WAL.
    const big = 'z'.repeat(8000);
    let maxWal = 0;
    for (let i = 0; i < 12_000; i++) {
      await c.write(() => c.stmt('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(`b${i}`, big));
      if (i % 500 === 0) maxWal = Math.max(maxWal, size(`${path}-wal`));
    }
    await c.close();
    expect(maxWal).toBeGreaterThan(0);
    // Unchecked it passes 250 MB; the writer trims it back near the 64 MB journal size limit.
    expect(maxWal).toBeLessThan(100 * 1024 * 1024);
  });
});
