import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { indexTerms } from '@permafrost/core/store';
import { G1, G2, makeMessage } from '@permafrost/store-conformance';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../src/index.js';
import { ftsMatchExpression } from '../src/sql/fts-query.js';
import { JOINED_SEARCH } from '../src/sql/message-keyword-search.js';

const WORDS = ['violin', 'chess', 'bread', 'garden', 'piano', 'river', 'coffee', 'hiking'];

describe('message keyword search ranks the index first in a big guild', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pf-msgsearch-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('returns exactly the rows and order of the joined query, in the big guild and in a small one', async () => {
    const path = join(dir, 'search.db');
    const store = createSqliteStore({ path });
    await store.setup();
    // Few words, so many rows score the same: ties are broken by message id (as bytes, so "10" < "9"),
    // and ids are written in an order unrelated to it.
    const rows = Array.from({ length: 400 }, (_, i) => {
      const big = i % 7 !== 0;
      const id = `${(i * 37) % 1000}-${i}`;
      const words = Array.from(
        { length: 1 + (i % 4) },
        (_, j) => WORDS[(i * (j + 3) + 5 * j) % WORDS.length],
      );
      // A word of nearly every small-guild message and of few big-guild ones: the big guild's
      // best matches for it are ranked below many of the small guild's.
      if (!big || i % 50 === 1) words.push('kazoo');
      return makeMessage({ messageId: id, guildId: big ? G1 : G2, content: words.join(' ') });
    });
    await store.queue.enqueueMany(rows, 10_000);
    const queries = [
      ...WORDS.map((w) => [w]),
      ['kazoo'],
      ['violin', 'chess'],
      ['bread', 'river', 'coffee'],
      WORDS,
    ];
    const ours: [string, number][][] = [];
    for (const guild of [G1, G2])
      for (const words of queries)
        for (const limit of [1, 5, 20, 60, 400]) {
          const hits = await store.conversation.searchText(guild, indexTerms(words.join(' ')), limit);
          ours.push(hits.map((h) => [h.message.messageId, h.score]));
        }
    await store.close();
    const db = new Database(path, { readonly: true });
    const reference = db.prepare(JOINED_SEARCH);
    let i = 0;
    for (const guild of [G1, G2])
      for (const words of queries)
        for (const limit of [1, 5, 20, 60, 400]) {
          const match = ftsMatchExpression(indexTerms(words.join(' ')));
          const expected = (reference.all(match, guild, limit) as { message_id: string; bm25: number }[]).map(
            (r): [string, number] => [r.message_id, -r.bm25],
          );
          expect(expected.length).toBeGreaterThan(0);
          expect(ours[i++]).toEqual(expected);
        }
    db.close();
  });
});
