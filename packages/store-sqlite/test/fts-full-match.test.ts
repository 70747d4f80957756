import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Bm25Corpus, indexTerms } from '@permafrost/core/store';
import { G1, makeFact } from '@permafrost/store-conformance';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../src/index.js';
import { readVarint } from '../src/sql/fts-full-match.js';

describe('keyword full-match score', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pf-fullmatch-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads SQLite varints of one to nine bytes', () => {
    expect(readVarint(Uint8Array.of(0x64))).toBe(100);
    expect(readVarint(Uint8Array.of(0x81, 0x48))).toBe(200);
    expect(readVarint(Uint8Array.of(0x81, 0x80, 0x00))).toBe(16_384);
    expect(readVarint(Uint8Array.of(0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0x01))).toBe(
      2 ** 57 + 2 ** 50 + 2 ** 43 + 2 ** 36 + 2 ** 29 + 2 ** 22 + 2 ** 15 + 2 ** 8 + 1,
    );
    expect(readVarint(Uint8Array.of())).toBe(0);
  });

  it("uses the row count bm25() uses: a term's idf equals the bm25 of a one-term row of average length", async () => {
    const path = join(dir, 'fm.db');
    const store = createSqliteStore({ path });
    await store.setup();
    // Every fact two terms long, so a row holding the term once is of average length.
    const texts = ['violin lessons', 'chess club', 'chess games', 'sourdough bread', 'violin case'];
    await store.facts.insert(texts.map((text) => makeFact({ text })));
    const terms = indexTerms('violin');
    const hits = await store.facts.searchText({ guildId: G1 }, terms, 10);
    await store.close();
    const reference = new Bm25Corpus();
    for (const t of texts) reference.add(indexTerms(t));
    expect(hits).toHaveLength(2);
    for (const h of hits) {
      expect(h.fullMatchScore).toBeCloseTo(reference.fullMatchScore(terms), 9);
      expect(h.score).toBeCloseTo(h.fullMatchScore ?? 0, 9);
    }
    const db = new Database(path, { readonly: true });
    expect(db.prepare('SELECT doc FROM facts_fts_vocab WHERE term = ?').get(terms[0])).toEqual({ doc: 2 });
    db.close();
  });
});
