import { describe, expect, it } from 'vitest';
import { at, type ConformanceOptions, G1, makeFact, makeMessage, withStore } from '../fixtures.js';

/** U+0000 and U+FFFF (the Mongo store's escape) in every kind of stored string. */
const NUL = 'a\u0000b';
const TRICKY = `x\u0000\uffff0\uffff1\uffff\u0000\u0000y`;

export function nulTextSuite(o: ConformanceOptions): void {
  describe('NUL characters in stored text', () => {
    it('round-trips facts, ids and names holding U+0000 exactly', () =>
      withStore(o, async (s) => {
        const f = makeFact({
          id: `fct_${NUL}`,
          text: `likes ${TRICKY} tea`,
          subjectId: `u${NUL}`,
          attribution: { type: 'third_party', speakerId: `s${NUL}`, speakerName: TRICKY, actorId: null },
          relatedUserIds: [NUL],
          entitySlugs: [TRICKY],
        });
        const plain = makeFact({ id: 'fct_plain_nul_neighbour', subjectId: 'u' });
        await s.facts.insert([f, plain]);
        const [got] = await s.facts.get(G1, [f.id]);
        expect(got).toEqual(f);
        // Equality on an id with NUL matches that id only, not its NUL-free neighbour.
        expect((await s.facts.get(G1, ['fct_a', 'fct_b', f.id])).map((x) => x.id)).toEqual([f.id]);
        expect(
          (await s.facts.topStrength({ guildId: G1, subjectIds: [`u${NUL}`] }, 10)).map((x) => x.id),
        ).toEqual([f.id]);
      }));

    it('round-trips message content, names and aliases holding U+0000 exactly', () =>
      withStore(o, async (s) => {
        const m = makeMessage({
          channelId: 'c-nul',
          content: `hello ${TRICKY} world`,
          authorDisplayName: NUL,
        });
        await s.queue.enqueueMany([m], 100);
        const [got] = await s.conversation.channelHistory(G1, 'c-nul', { limit: 5 });
        expect(got?.content).toBe(m.content);
        expect(got?.authorDisplayName).toBe(NUL);
        await s.aliases.upsert({
          guildId: G1,
          alias: TRICKY,
          userId: `u${NUL}`,
          source: 'display_name',
          weight: 0.7,
          updatedAt: at(0),
        });
        const found = await s.aliases.find(G1, TRICKY, 8);
        expect(found.map((a) => [a.alias, a.userId])).toEqual([[TRICKY, `u${NUL}`]]);
        expect(await s.aliases.find(G1, 'xy', 8)).toEqual([]);
      }));
  });
}
