import { indexTerms, queryTerms } from '@permafrost/core/store';
import { describe, expect, it } from 'vitest';
import {
  at,
  type ConformanceOptions,
  days,
  errorCode,
  factId,
  G1,
  G2,
  makeFact,
  makeHistory,
  withStore,
} from '../fixtures.js';

export function factSuite(o: ConformanceOptions): void {
  describe('facts', () => {
    it('round-trips every field of a fact', () =>
      withStore(o, async (s) => {
        const f = makeFact({
          text: 'Bob was called a hacker by Alice',
          subjectId: 'bob',
          attribution: { type: 'third_party', speakerId: 'alice', speakerName: 'Alice', actorId: null },
          sources: [
            {
              messageId: 'm1',
              channelId: 'c1',
              authorId: 'alice',
              authorName: 'Alice',
              snippet: 'you absolute hacker',
              url: 'https://discord.com/channels/guild-1/c1/m1',
              role: 'primary',
              createdAt: at(5),
            },
          ],
          relatedUserIds: ['alice'],
          entitySlugs: ['lobby'],
          expiresAt: days(45),
          tier: 'long',
          category: 'relationships',
          confidence: 0.85,
          strength: 2.5,
          occurrences: 3,
        });
        await s.facts.insert([f]);
        const [got] = await s.facts.get(G1, [f.id]);
        expect(got).toEqual(f);
      }));

    it('get keeps request order and drops unknown ids and other guilds', () =>
      withStore(o, async (s) => {
        const a = makeFact({ id: factId(101) });
        const c = makeFact({ id: factId(103) });
        const other = makeFact({ id: factId(104), guildId: G2 });
        await s.facts.insert([a, c, other]);
        const got = await s.facts.get(G1, [c.id, 'fct_missing', a.id, other.id]);
        expect(got.map((f) => f.id)).toEqual([c.id, a.id]);
      }));

    it('rejects a duplicate id with CONFLICT and inserts nothing from that call', () =>
      withStore(o, async (s) => {
        const a = makeFact();
        await s.facts.insert([a]);
        const b = makeFact();
        expect(await errorCode(s.facts.insert([b, makeFact({ id: a.id })]))).toBe('CONFLICT');
        expect(await s.facts.get(G1, [b.id])).toEqual([]);
        expect((await s.facts.get(G1, [a.id]))[0]?.text).toBe(a.text);
      }));

    it('update applies the patch, bumps version and updatedAt', () =>
      withStore(o, async (s) => {
        const f = makeFact();
        await s.facts.insert([f]);
        const next = await s.facts.update(
          G1,
          f.id,
          { strength: 3, occurrences: 2, tier: 'long' },
          { at: at(60) },
        );
        expect(next).toMatchObject({ strength: 3, occurrences: 2, tier: 'long', version: 2 });
        expect(next?.updatedAt).toEqual(at(60));
        expect((await s.facts.get(G1, [f.id]))[0]).toEqual(next);
      }));

    it('update with a stale expectedVersion or unknown id returns null and changes nothing', () =>
      withStore(o, async (s) => {
        const f = makeFact();
        await s.facts.insert([f]);
        expect(await s.facts.update(G1, f.id, { strength: 9 }, { at: at(1), expectedVersion: 5 })).toBeNull();
        expect(await s.facts.update(G1, 'fct_nope', { strength: 9 }, { at: at(1) })).toBeNull();
        expect(await s.facts.update(G2, f.id, { strength: 9 }, { at: at(1) })).toBeNull();
        expect((await s.facts.get(G1, [f.id]))[0]?.strength).toBe(1);
        expect(
          await s.facts.update(G1, f.id, { strength: 4 }, { at: at(1), expectedVersion: 1 }),
        ).not.toBeNull();
      }));

    it('finds an active exact duplicate for the same subject only', () =>
      withStore(o, async (s) => {
        const f = makeFact({ text: 'Alice  Likes Movies' });
        const server = makeFact({ subjectId: null, text: 'game night is on fridays' });
        await s.facts.insert([f, server]);
        expect((await s.facts.findByNormalizedText(G1, 'u1', 'alice likes movies'))?.id).toBe(f.id);
        expect(await s.facts.findByNormalizedText(G1, 'u2', 'alice likes movies')).toBeNull();
        expect(await s.facts.findByNormalizedText(G2, 'u1', 'alice likes movies')).toBeNull();
        expect((await s.facts.findByNormalizedText(G1, null, 'game night is on fridays'))?.id).toBe(
          server.id,
        );
      }));

    it('duplicate lookup ignores invalidated and superseded facts', () =>
      withStore(o, async (s) => {
        const ended = makeFact({ validUntil: at(10) });
        const superseded = makeFact({ text: 'alice lives in omaha', supersededById: 'fct_x' });
        await s.facts.insert([ended, superseded]);
        expect(await s.facts.findByNormalizedText(G1, 'u1', ended.normalizedText)).toBeNull();
        expect(await s.facts.findByNormalizedText(G1, 'u1', superseded.normalizedText)).toBeNull();
      }));

    it('pages through every fact oldest-first with a cursor, and newest-first', () =>
      withStore(o, async (s) => {
        const facts = Array.from({ length: 5 }, (_, i) =>
          makeFact({ id: factId(200 + i), text: `fact number ${i}` }),
        );
        await s.facts.insert([...facts].reverse());
        const p1 = await s.facts.list({ guildId: G1, limit: 2 });
        expect(p1.items.map((f) => f.id)).toEqual([facts[0]?.id, facts[1]?.id]);
        expect(p1.nextCursor).not.toBeNull();
        const p2 = await s.facts.list({ guildId: G1, limit: 5, cursor: p1.nextCursor as string });
        expect(p2.items.map((f) => f.id)).toEqual(facts.slice(2).map((f) => f.id));
        expect(p2.nextCursor).toBeNull();
        const newest = await s.facts.list({ guildId: G1, limit: 3, order: 'newest' });
        expect(newest.items.map((f) => f.id)).toEqual([facts[4]?.id, facts[3]?.id, facts[2]?.id]);
        const rest = await s.facts.list({
          guildId: G1,
          limit: 3,
          order: 'newest',
          cursor: newest.nextCursor as string,
        });
        expect(rest.items.map((f) => f.id)).toEqual([facts[1]?.id, facts[0]?.id]);
      }));

    it('random listing samples within the filter and refuses a cursor', () =>
      withStore(o, async (s) => {
        const mine = Array.from({ length: 6 }, (_, i) => makeFact({ text: `mine ${i}` }));
        await s.facts.insert([...mine, makeFact({ subjectId: 'u2', text: 'not mine' })]);
        const page = await s.facts.list({ guildId: G1, subjectIds: ['u1'], limit: 4, order: 'random' });
        expect(page.items).toHaveLength(4);
        expect(page.items.every((f) => f.subjectId === 'u1')).toBe(true);
        expect(page.nextCursor).toBeNull();
        expect(await errorCode(s.facts.list({ guildId: G1, limit: 2, order: 'random', cursor: 'x' }))).toBe(
          'SCHEMA_INVALID',
        );
      }));

    it('filters by subject, server scope and validity', () =>
      withStore(o, async (s) => {
        const u1 = makeFact({ text: 'u1 fact' });
        const u2 = makeFact({ subjectId: 'u2', text: 'u2 fact' });
        const server = makeFact({ subjectId: null, text: 'server fact' });
        const ended = makeFact({ text: 'u1 old fact', validUntil: at(1) });
        await s.facts.insert([u1, u2, server, ended]);
        const ids = async (filter: Parameters<typeof s.facts.list>[0]) =>
          (await s.facts.list(filter)).items.map((f) => f.id).sort();
        expect(await ids({ guildId: G1, subjectIds: ['u1'], limit: 10 })).toEqual([u1.id]);
        expect(await ids({ guildId: G1, subjectIds: ['u1'], includeServer: true, limit: 10 })).toEqual(
          [u1.id, server.id].sort(),
        );
        expect(await ids({ guildId: G1, serverOnly: true, limit: 10 })).toEqual([server.id]);
        expect(await ids({ guildId: G1, subjectIds: ['u1'], validity: 'any', limit: 10 })).toEqual(
          [u1.id, ended.id].sort(),
        );
        expect(await ids({ guildId: G1, limit: 10 })).toEqual([u1.id, u2.id, server.id].sort());
      }));

    it('reads facts as of an instant (time travel)', () =>
      withStore(o, async (s) => {
        const omaha = makeFact({
          text: 'alice lives in omaha',
          validFrom: days(0),
          validUntil: days(10),
          supersededById: 'fct_seattle',
        });
        const seattle = makeFact({
          text: 'alice lives in seattle',
          validFrom: days(10),
          createdAt: days(10),
        });
        await s.facts.insert([omaha, seattle]);
        const asOf = async (d: Date) =>
          (await s.facts.list({ guildId: G1, validity: { asOf: d }, limit: 10 })).items.map((f) => f.text);
        expect(await asOf(days(5))).toEqual(['alice lives in omaha']);
        expect(await asOf(days(10))).toEqual(['alice lives in seattle']);
        expect(await asOf(days(-1))).toEqual([]);
        const hits = await s.facts.searchText(
          { guildId: G1, validity: { asOf: days(5) } },
          queryTerms('where does alice live'),
          10,
        );
        expect(hits.map((h) => h.fact.id)).toEqual([omaha.id]);
        const top = await s.facts.topStrength({ guildId: G1, validity: { asOf: days(20) } }, 10);
        expect(top.map((f) => f.id)).toEqual([seattle.id]);
      }));

    it('orders by strength, then recency, within scope and limit', () =>
      withStore(o, async (s) => {
        const weak = makeFact({ text: 'weak', strength: 1 });
        const strong = makeFact({ text: 'strong', strength: 9 });
        const recent = makeFact({ text: 'recent', strength: 1, lastReinforcedAt: days(3) });
        const other = makeFact({ subjectId: 'u2', text: 'other strong', strength: 50 });
        await s.facts.insert([weak, strong, recent, other]);
        const top = await s.facts.topStrength({ guildId: G1, subjectIds: ['u1'] }, 2);
        expect(top.map((f) => f.text)).toEqual(['strong', 'recent']);
      }));

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

    it('touch moves lastReinforcedAt without a new version', () =>
      withStore(o, async (s) => {
        const f = makeFact();
        await s.facts.insert([f]);
        expect(await s.facts.touch(G1, [f.id, 'fct_missing'], days(2))).toBe(1);
        const [got] = await s.facts.get(G1, [f.id]);
        expect(got?.lastReinforcedAt).toEqual(days(2));
        expect(got?.version).toBe(1);
      }));

    it('appends and reads history oldest first, per guild', () =>
      withStore(o, async (s) => {
        const f = makeFact();
        await s.facts.insert([f]);
        await s.facts.appendHistory([makeHistory(f, { at: at(1), kind: 'created' })]);
        await s.facts.appendHistory([
          makeHistory(f, { at: at(2), kind: 'updated', previousText: 'old words', version: 2 }),
        ]);
        const h = await s.facts.history(G1, f.id);
        expect(h.map((e) => e.kind)).toEqual(['created', 'updated']);
        expect(h[1]?.previousText).toBe('old words');
        expect(await s.facts.history(G2, f.id)).toEqual([]);
      }));

    it('never returns another guild’s facts from any read', () =>
      withStore(o, async (s) => {
        const f = makeFact({ guildId: G2, text: 'secret of guild two' });
        await s.facts.insert([f]);
        expect(await s.facts.get(G1, [f.id])).toEqual([]);
        expect((await s.facts.list({ guildId: G1, limit: 10, validity: 'any' })).items).toEqual([]);
        expect(await s.facts.topStrength({ guildId: G1 }, 10)).toEqual([]);
        expect(await s.facts.searchText({ guildId: G1 }, indexTerms('secret guild'), 10)).toEqual([]);
        expect(await s.facts.findByNormalizedText(G1, 'u1', f.normalizedText)).toBeNull();
        expect(await s.facts.touch(G1, [f.id], at(1))).toBe(0);
      }));
  });
}
