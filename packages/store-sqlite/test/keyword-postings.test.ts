import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MemoryStore } from '@permafrost/core';
import { indexTerms, type MessageTextHit } from '@permafrost/core/store';
import { G1, G2, makeMessage } from '@permafrost/store-conformance';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteConnection } from '../src/connection.js';
import { createSqliteStore } from '../src/index.js';
import { KeywordPostings } from '../src/keyword-postings/keyword-postings.js';
import { MessageTable } from '../src/message-table.js';
import { ftsMatchExpression } from '../src/sql/fts-query.js';
import { messageKeywordHits } from '../src/sql/message-keyword-search.js';
import { VecTable } from '../src/vec-table.js';

/** Words with very different frequencies (the first ones are in most rows), so BM25 has work. */
const WORDS = Array.from({ length: 60 }, (_, i) => `w${i.toString(36)}x${'abcdefghij'[i % 10]}`);

/** A deterministic generator (mulberry32), so every run ranks the same texts. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Text of 1 to 40 words, skewed towards the first words, with repeats. */
function text(next: () => number): string {
  const n = 1 + Math.floor(next() * 40);
  return Array.from({ length: n }, () => WORDS[Math.floor(WORDS.length * next() ** 2)] as string).join(' ');
}

const yieldStep = () => new Promise<void>((done) => setImmediate(done));

const ftsRowCount = (c: SqliteConnection) =>
  (c.stmt('SELECT count(*) AS n FROM messages_fts_docsize').get() as { n: number }).n;

/** Every matching row as FTS5 ranks it: [rowid, bm25()], best first, ties by rowid. */
function ftsRanking(c: SqliteConnection, terms: readonly string[]): [number, number][] {
  const match = ftsMatchExpression(terms);
  if (match === null) return [];
  return c
    .stmt('SELECT rowid, bm25(messages_fts) FROM messages_fts WHERE messages_fts MATCH ? ORDER BY 2, 1')
    .raw(true)
    .all(match) as [number, number][];
}

/** The copy's ranking equals FTS5's: the same rows in the same order, scores to rounding. */
function expectSameRanking(c: SqliteConnection, postings: KeywordPostings, terms: readonly string[]): void {
  c.snapshot(() => {
    const expected = ftsRanking(c, terms);
    const ranking = postings.ranking(c, terms);
    expect(ranking).not.toBeNull();
    const got = (ranking as (depth: number) => [number, number][])(expected.length + 5);
    expect(got.map((r) => r[0])).toEqual(expected.map((r) => r[0]));
    got.forEach(([, score], i) => {
      const want = (expected[i] as [number, number])[1];
      expect(Math.abs(score - want)).toBeLessThanOrEqual(Math.abs(want) * 1e-12);
    });
  });
}

const queries = (next: () => number) =>
  Array.from({ length: 40 }, () =>
    indexTerms(Array.from({ length: 1 + Math.floor(next() * 6) }, () => text(next).split(' ')[0]).join(' ')),
  );

const summary = (hits: readonly MessageTextHit[]) =>
  hits.map((h) => [
    h.message.messageId,
    Math.round(h.score * 1e9),
    Math.round((h.fullMatchScore ?? 0) * 1e9),
  ]);

describe('KeywordPostings: the message keyword index in memory', () => {
  let dir: string;
  let path: string;
  let store: MemoryStore;
  let reader: SqliteConnection;
  let seq = 0;

  async function add(count: number, next: () => number, guildId = G1): Promise<void> {
    const rows = Array.from({ length: count }, () =>
      makeMessage({
        messageId: `m${String(seq++).padStart(6, '0')}`,
        guildId,
        channelId: `c${seq % 7}`,
        content: text(next),
      }),
    );
    await store.queue.enqueueMany(rows, 1_000_000);
    // A search brings the keyword index up to date.
    await store.conversation.searchText(G1, ['w0xa'], 1);
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pf-postings-'));
    path = join(dir, 'postings.db');
    store = createSqliteStore({ path });
    await store.setup();
    const next = random(7);
    await add(1500, next);
    await add(300, next, G2);
    reader = new SqliteConnection({ path, busyTimeoutMs: 5000, readOnly: true });
  });
  afterAll(async () => {
    await reader.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('ranks every matching row as FTS5 does, and search hits come out the same', async () => {
    const postings = new KeywordPostings();
    expect(reader.snapshot(() => postings.ranking(reader, ['w0xa']))).toBeNull();
    await postings.build(reader, yieldStep);
    expect(postings.built).toBe(true);
    expect(postings.size.rows).toBe(1800);
    const next = random(11);
    for (const terms of [...queries(next), ['w0xa'], ['nothing1'], ['w1xb', 'nothing2', 'w2xc']]) {
      expectSameRanking(reader, postings, terms);
      for (const guild of [G1, G2])
        for (const limit of [1, 10, 100])
          expect(summary(messageKeywordHits(reader, guild, terms, limit, { postings }))).toEqual(
            summary(messageKeywordHits(reader, guild, terms, limit)),
          );
    }
  });

  it('follows rows added after it was built, and starts over after an edit or a delete', async () => {
    const postings = new KeywordPostings();
    await postings.build(reader, yieldStep);
    const next = random(13);
    await add(200, next);
    expectSameRanking(reader, postings, ['w3xd', 'w9xj']);
    expect(postings.size.rows).toBe(2000);

    await store.queue.markEdited(G1, 'm000010', 'w5xf w5xf w5xf brandnew', false);
    await store.conversation.searchText(G1, ['w0xa'], 1);
    // Rewritten since: no ranking from the copy until it is built again.
    expect(reader.snapshot(() => postings.ranking(reader, ['brandnew']))).toBeNull();
    expect(postings.built).toBe(false);
    await postings.build(reader, yieldStep);
    expectSameRanking(reader, postings, ['brandnew', 'w5xf']);

    await store.conversation.deleteMessages(G1, ['m000011', 'm000012']);
    expect(reader.snapshot(() => postings.ranking(reader, ['w5xf']))).toBeNull();
    await postings.build(reader, yieldStep);
    expectSameRanking(reader, postings, ['w5xf', 'w0xa']);
    expect(postings.size.rows).toBe(1998);
  });

  it('lets go of every posting on drop(), also in the middle of a build', async () => {
    const postings = new KeywordPostings();
    await postings.build(reader, yieldStep);
    expect(postings.size.terms).toBeGreaterThan(0);
    postings.drop();
    expect(postings.built).toBe(false);
    expect(postings.size).toEqual({ rows: 0, tokens: 0, terms: 0 });
    expect(reader.snapshot(() => postings.ranking(reader, ['w0xa']))).toBeNull();
    // A drop while a build is under way (at its first pause): the build starts over and holds
    // every row once.
    let pauses = 0;
    const building = postings.build(
      reader,
      async () => {
        if (pauses++ === 0) postings.drop();
        await yieldStep();
      },
      0,
    );
    await building;
    expect(pauses).toBeGreaterThan(1);
    expect(postings.built).toBe(true);
    expect(postings.size.rows).toBe(reader.snapshot(() => ftsRowCount(reader)));
    expectSameRanking(reader, postings, ['w0xa', 'w4xe']);
  });

  it('tells the read thread after every committed delete or edit of messages', async () => {
    const own = join(dir, 'rewrites.db');
    const writer = createSqliteStore({ path: own });
    await writer.setup();
    await writer.queue.enqueueMany(
      [
        makeMessage({ messageId: 'r1', content: 'lantern orbit' }),
        makeMessage({ messageId: 'r2', content: 'orbit' }),
        makeMessage({ messageId: 's1', content: 'a session entry', kind: 'session', status: 'processed' }),
      ],
      100,
    );
    await writer.close();
    const c = new SqliteConnection({ path: own, busyTimeoutMs: 5000 });
    let told = 0;
    const table = new MessageTable(c, new VecTable(c), () => told++);
    try {
      await c.write(() => table.flushIndex());
      expect(told).toBe(0);
      await c.write(() => table.markEdited(G1, 'r1', 'lantern river', false));
      expect(told).toBe(1);
      await c.write(() => table.deleteWhere('message_id = ?', ['r2']));
      expect(told).toBe(2);
      await c.write(() => table.deleteWhere('message_id = ?', ['no-such-message']));
      expect(told).toBe(2);
      // A session entry was never in the keyword index: trimming one (every append past the
      // session's cap) neither tells the thread nor counts as a rewrite.
      const rewrites = () =>
        (c.stmt('SELECT rewrites FROM messages_fts_state').get() as { rewrites: number }).rewrites;
      const before = rewrites();
      await c.write(() => table.deleteWhere('message_id = ?', ['s1']));
      expect(told).toBe(2);
      expect(rewrites()).toBe(before);
    } finally {
      await c.close();
    }
  });

  it('leaves terms it does not model to FTS5: the search answers the same', async () => {
    const postings = new KeywordPostings();
    await postings.build(reader, yieldStep);
    const terms = indexTerms('東京 w0xa');
    expect(terms.some((t) => !/^[a-z0-9]+$/.test(t))).toBe(true);
    expect(reader.snapshot(() => postings.ranking(reader, terms))).toBeNull();
    expect(summary(messageKeywordHits(reader, G1, terms, 50, { postings }))).toEqual(
      summary(messageKeywordHits(reader, G1, terms, 50)),
    );
  });

  it('is not used for an index whose rows it cannot reproduce from their messages', async () => {
    const own = join(dir, 'foreign.db');
    const writer = createSqliteStore({ path: own });
    await writer.setup();
    await writer.queue.enqueueMany(
      [
        makeMessage({ messageId: 'f1', content: 'lantern orbit' }),
        makeMessage({ messageId: 'f2', content: 'orbit' }),
      ],
      100,
    );
    await writer.conversation.searchText(G1, ['orbit'], 1);
    await writer.close();
    // Another writer changed a message's text without indexing it again.
    const raw = new SqliteConnection({ path: own, busyTimeoutMs: 5000 });
    raw.db.prepare("UPDATE messages SET content = 'lantern orbit river' WHERE message_id = 'f1'").run();
    await raw.close();
    const c = new SqliteConnection({ path: own, busyTimeoutMs: 5000, readOnly: true });
    try {
      const postings = new KeywordPostings();
      await postings.build(c, yieldStep);
      expect(postings.built).toBe(false);
      expect(c.snapshot(() => postings.ranking(c, ['orbit']))).toBeNull();
      expect(messageKeywordHits(c, G1, ['orbit'], 5, { postings }).map((h) => h.message.messageId)).toEqual(
        messageKeywordHits(c, G1, ['orbit'], 5).map((h) => h.message.messageId),
      );
    } finally {
      await c.close();
    }
  });
});
