import { Bm25Corpus, indexTerms, queryTerms } from '@permafrost/core/store';
import { describe, expect, it } from 'vitest';
import { at, type ConformanceOptions, G1, G2, makeFact, withStore } from '../fixtures.js';

/** Keyword search over facts: BM25 ranking, scopes, index kept in sync, hostile terms. */
export function factSearchSuite(o: ConformanceOptions): void {
  describe('fact keyword search', () => {
    it('keyword search ORs the terms and ranks by BM25', () =>
      withStore(o, async (s) => {
        const rust = makeFact({ text: 'Alice loves Rust programming and compilers' });
        const go = makeFact({ text: 'Alice enjoys programming in Go' });
        const cat = makeFact({ text: 'Alice has a cat named Miso' });
        const filler = Array.from({ length: 6 }, (_, i) =>
          makeFact({ text: `alice went hiking trip number ${i}` }),
        );
        await s.facts.insert([rust, go, cat, ...filler]);
        const hits = await s.facts.searchText(
          { guildId: G1 },
          queryTerms('what programming language does she love, rust?'),
          10,
        );
        expect(hits.map((h) => h.fact.id)).toEqual([rust.id, go.id]);
        expect(hits[0]?.score).toBeGreaterThan(hits[1]?.score ?? 0);
        expect(hits.every((h) => h.score > 0)).toBe(true);
        const one = await s.facts.searchText({ guildId: G1 }, queryTerms('tell me about miso please'), 10);
        expect(one.map((h) => h.fact.id)).toEqual([cat.id]);
      }));

    it("reports the query's full-match score on every hit (the sum of its terms' idf)", () =>
      withStore(o, async (s) => {
        const texts = [
          'alice plays the violin in an orchestra',
          'alice plays chess on sundays',
          'alice bakes sourdough bread',
          'bob plays violin too',
          'carol collects stamps',
        ];
        await s.facts.insert(texts.map((text) => makeFact({ text })));
        const reference = new Bm25Corpus();
        for (const t of texts) reference.add(indexTerms(t));
        // "zeppelin" is in no fact: a full match would hold it too.
        const terms = queryTerms('who plays violin, zeppelin?');
        const hits = await s.facts.searchText({ guildId: G1 }, terms, 10);
        expect(hits).toHaveLength(3);
        const expected = reference.fullMatchScore(terms);
        expect(expected).toBeGreaterThan(reference.fullMatchScore(queryTerms('who plays violin?')));
        for (const h of hits) expect(h.fullMatchScore).toBeCloseTo(expected, 9);
      }));

    it('keyword search respects subject, server and validity scope', () =>
      withStore(o, async (s) => {
        const mine = makeFact({ text: 'likes chess openings' });
        const theirs = makeFact({ subjectId: 'u2', text: 'likes chess endgames' });
        const server = makeFact({ subjectId: null, text: 'chess club meets on tuesdays' });
        const ended = makeFact({ text: 'used to like chess puzzles', validUntil: at(5) });
        await s.facts.insert([mine, theirs, server, ended]);
        const terms = indexTerms('chess');
        const ids = async (f: Parameters<typeof s.facts.searchText>[0]) =>
          (await s.facts.searchText(f, terms, 10)).map((h) => h.fact.id).sort();
        expect(await ids({ guildId: G1, subjectIds: ['u1'] })).toEqual([mine.id]);
        expect(await ids({ guildId: G1, subjectIds: ['u1'], includeServer: true })).toEqual(
          [mine.id, server.id].sort(),
        );
        expect(await ids({ guildId: G1, serverOnly: true })).toEqual([server.id]);
        expect(await ids({ guildId: G1, subjectIds: ['u1'], validity: 'any' })).toEqual(
          [mine.id, ended.id].sort(),
        );
        expect(await ids({ guildId: G2 })).toEqual([]);
      }));

    it('keeps the keyword index in sync with text updates', () =>
      withStore(o, async (s) => {
        const f = makeFact({ text: 'alice plays violin' });
        await s.facts.insert([f]);
        await s.facts.update(
          G1,
          f.id,
          { text: 'alice plays cello', normalizedText: 'alice plays cello' },
          { at: at(1) },
        );
        expect(await s.facts.searchText({ guildId: G1 }, indexTerms('violin'), 5)).toEqual([]);
        const hits = await s.facts.searchText({ guildId: G1 }, indexTerms('cello'), 5);
        expect(hits.map((h) => h.fact.text)).toEqual(['alice plays cello']);
      }));

    it('treats keyword terms as data, never as query syntax', () =>
      withStore(o, async (s) => {
        await s.facts.insert([makeFact({ text: 'near the end of the road' })]);
        const hostile = [
          '"',
          '""',
          '*',
          'a*',
          'NEAR',
          'near(',
          'OR',
          'AND',
          'NOT',
          '-x',
          'col:val',
          '(',
          ')',
          "'",
          '\\',
          '^',
          '{',
          '$gt',
          '%',
          '_',
          ';drop',
          '\u0000',
          '\ud800',
        ];
        for (const term of hostile) {
          const hits = await s.facts.searchText({ guildId: G1 }, [term], 5);
          expect(Array.isArray(hits)).toBe(true);
        }
        const hits = await s.facts.searchText({ guildId: G1 }, ['near', '"', 'OR', '*'], 5);
        expect(hits).toHaveLength(1);
      }));
  });
}
