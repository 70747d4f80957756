import { indexTerms } from '@permafrost/core/store';
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

/** Fact records: insert, get, versioned update, touch, history, and guild isolation of every read. */
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
