import { queryTerms } from '@permafrost/core/store';
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
  withStore,
} from '../fixtures.js';

/** Fact queries: exact-duplicate lookup, listing (cursor, order, random), scope and validity filters, strength order. */
export function factQuerySuite(o: ConformanceOptions): void {
  describe('fact queries', () => {
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

    it('looks up several duplicates in one call, in request order, as the single lookup does', () =>
      withStore(o, async (s) => {
        const first = makeFact({ text: 'Alice likes movies' });
        const server = makeFact({ subjectId: null, text: 'game night is on fridays' });
        const ended = makeFact({ text: 'alice lives in omaha', validUntil: at(10) });
        const other = makeFact({ guildId: G2, text: 'alice collects stamps' });
        await s.facts.insert([first, server, ended, other]);
        const keys = [
          { subjectId: null, normalizedText: 'game night is on fridays' },
          { subjectId: 'u1', normalizedText: 'alice lives in omaha' },
          { subjectId: 'u1', normalizedText: 'alice likes movies' },
          { subjectId: 'u2', normalizedText: 'alice likes movies' },
          { subjectId: 'u1', normalizedText: 'alice collects stamps' },
          { subjectId: 'u1', normalizedText: 'alice likes movies' },
        ];
        const found = await s.facts.findByNormalizedTexts(G1, keys);
        const single = await Promise.all(
          keys.map((k) => s.facts.findByNormalizedText(G1, k.subjectId, k.normalizedText)),
        );
        expect(found.map((f) => f?.id ?? null)).toEqual([server.id, null, first.id, null, null, first.id]);
        expect(found.map((f) => f?.id ?? null)).toEqual(single.map((f) => f?.id ?? null));
        expect(await s.facts.findByNormalizedTexts(G1, [])).toEqual([]);
      }));

    it('inserts only the facts that are new, answering the duplicate for the others', () =>
      withStore(o, async (s) => {
        const stored = makeFact({ text: 'Alice likes movies' });
        const ended = makeFact({ text: 'alice lives in omaha', validUntil: at(10) });
        await s.facts.insert([stored, ended]);
        const again = makeFact({ text: 'alice LIKES movies' });
        const moved = makeFact({ text: 'Alice lives in Omaha' });
        const bob = makeFact({ subjectId: 'u2', text: 'alice likes movies' });
        const twice = makeFact({ text: 'alice lives in  omaha' });
        const result = await s.facts.insertDistinct(G1, [again, moved, bob, twice]);
        expect(result.map((f) => f?.id ?? null)).toEqual([stored.id, null, null, moved.id]);
        const ids = (await s.facts.get(G1, [again.id, moved.id, bob.id, twice.id])).map((f) => f.id);
        expect(ids.sort()).toEqual([moved.id, bob.id].sort());
        expect(await s.facts.insertDistinct(G1, [])).toEqual([]);
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
  });
}
