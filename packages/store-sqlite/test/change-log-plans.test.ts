import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FACT_CHANGES_SINCE } from '../src/fact-cache.js';
import { createSqliteStore } from '../src/index.js';
import { FACT_CHANGES_KEPT } from '../src/migrations/010-fact-epochs.js';
import {
  MESSAGE_VECTOR_CHANGES_KEPT,
  MESSAGE_VECTOR_CHANGES_PRUNE,
} from '../src/migrations/011-message-vector-changes.js';
import { FACT_CHANGES_PRUNE } from '../src/migrations/012-change-log-reads.js';
import { MESSAGE_VECTOR_CHANGES_SINCE } from '../src/vector-scan/message-vectors.js';

/**
 * The change logs are written at every logged change and read at every catch-up: their statements
 * must stay index searches even when the planner statistics were taken while a log held two rows
 * (a full scan per logged change made 65,536 inserts take 42 s).
 */
describe('change logs under statistics that call them tiny', () => {
  let dir: string;
  let db: Database.Database;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'permafrost-change-logs-'));
    const path = join(dir, 'memory.db');
    const store = createSqliteStore({ path });
    await store.setup();
    await store.close();
    db = new Database(path);
    db.exec(`INSERT INTO fact_changes (guild_id, row_id) VALUES ('g', 1), ('g', 2);
      INSERT INTO message_vector_changes (guild_id, row_id) VALUES ('g', 1), ('g', 2);
      ANALYZE;`);
  });
  afterAll(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const plan = (sql: string, ...params: unknown[]) =>
    (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail);

  it('plans the prune triggers and the catch-up reads as searches', () => {
    for (const table of ['fact_changes', 'message_vector_changes']) {
      const stat = db.prepare('SELECT stat FROM sqlite_stat1 WHERE tbl = ?').pluck().get(table) as string;
      expect(stat.split(' ')[0]).toBe('2');
    }
    const trigger = (name: string) =>
      db.prepare("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?").pluck().get(name);
    expect(trigger('fact_changes_prune')).toContain(FACT_CHANGES_PRUNE);
    expect(trigger('message_vector_changes_prune')).toContain(MESSAGE_VECTOR_CHANGES_PRUNE);
    for (const prune of [FACT_CHANGES_PRUNE, MESSAGE_VECTOR_CHANGES_PRUNE])
      expect(plan(prune.replace('NEW.seq', '100000')).join()).toMatch(
        /^SEARCH \w+ USING INTEGER PRIMARY KEY \(rowid=\?\)$/,
      );
    for (const since of [FACT_CHANGES_SINCE, MESSAGE_VECTOR_CHANGES_SINCE])
      expect(plan(since, 'g', 0, 2)[0]).toMatch(
        /^SEARCH \w+ USING INDEX \w+_guild \(guild_id=\? AND seq>\? AND seq<\?\)$/,
      );
  });

  it('keeps exactly the last entries of each log, oldest dropped one at a time', () => {
    for (const [table, kept] of [
      ['fact_changes', FACT_CHANGES_KEPT],
      ['message_vector_changes', MESSAGE_VECTOR_CHANGES_KEPT],
    ] as const) {
      db.exec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${kept + 10})
        INSERT INTO ${table} (guild_id, row_id) SELECT 'g', i FROM n`);
      const r = db.prepare(`SELECT count(*) AS n, min(seq) AS lo, max(seq) AS hi FROM ${table}`).get() as {
        n: number;
        lo: number;
        hi: number;
      };
      expect(r).toEqual({ n: kept, lo: r.hi - kept + 1, hi: kept + 12 });
    }
  });
});
