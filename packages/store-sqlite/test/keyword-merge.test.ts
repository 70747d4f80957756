import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { indexTerms } from '@permafrost/core/store';
import { G1, makeFact } from '@permafrost/store-conformance';
import { createSqliteStore } from '@permafrost/store-sqlite';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const TOPICS = ['synthesizers', 'sourdough', 'bouldering', 'chess', 'gardening', 'origami'];

/** Segments of the fact keyword index (rows of its `_idx` shadow table per segment). */
function segments(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('SELECT count(DISTINCT segid) AS n FROM facts_fts_idx').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('fact keyword index merging', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'permafrost-fts-merge-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('merges an index left in many segments when the file is opened; hits and scores stay the same', async () => {
    const path = join(dir, 'split.db');
    const store = createSqliteStore({ path });
    // One small write transaction per fact: one new segment each.
    for (let i = 0; i < 24; i++)
      await store.facts.insert([
        makeFact({
          text: `member ${i} likes ${TOPICS[i % TOPICS.length]} and ${TOPICS[(i * 5) % TOPICS.length]}`,
        }),
      ]);
    const search = async (s: typeof store) =>
      (await s.facts.searchText({ guildId: G1 }, indexTerms('synthesizers chess origami'), 50)).map((h) => [
        h.fact.id,
        h.score,
      ]);
    const before = await search(store);
    await store.close();
    expect(before.length).toBeGreaterThan(0);
    expect(segments(path)).toBeGreaterThan(1);

    const reopened = createSqliteStore({ path });
    expect(await search(reopened)).toEqual(before);
    await reopened.close();
    expect(segments(path)).toBe(1);
  });

  it('merges the index into one segment every 500 keyword rows written', async () => {
    const path = join(dir, 'busy.db');
    const store = createSqliteStore({ path });
    let origami = 0;
    for (let batch = 0; batch < 100; batch++) {
      const topics = Array.from({ length: 5 }, (_, i) => TOPICS[(batch + i) % TOPICS.length]);
      origami += topics.filter((t) => t === 'origami').length;
      await store.facts.insert(topics.map((t, i) => makeFact({ text: `note ${batch}-${i} about ${t}` })));
    }
    // 500 rows in 100 transactions (FTS5 alone leaves them in several segments), merged by the
    // transaction that wrote the 500th; read before any reopen could merge them.
    expect(segments(path)).toBe(1);
    expect(await store.facts.searchText({ guildId: G1 }, indexTerms('origami'), 200)).toHaveLength(origami);
    await store.close();
  });
});
