import type { NodeRef } from '@permafrost/core';
import { describe, expect, it } from 'vitest';
import { at, type ConformanceOptions, G1, G2, makeFact, makeHistory, withStore } from '../fixtures.js';

const user = (id: string): NodeRef => ({ type: 'user', id });
const entity = (id: string): NodeRef => ({ type: 'entity', id });
const says = (speakerId: string) =>
  ({ type: 'third_party', speakerId, speakerName: speakerId, actorId: null }) as const;
const source = (authorId: string, messageId: string) => ({
  messageId,
  channelId: 'c1',
  authorId,
  authorName: authorId,
  snippet: `${authorId} wrote`,
  url: '',
  role: 'supporting' as const,
  createdAt: at(1),
});

/** The narrow reads core plans purges and imports with. */
export function memberReadsSuite(o: ConformanceOptions): void {
  describe('member reads', () => {
    it('pages the facts a member stated and the facts quoting them, any validity, in id order', () =>
      withStore(o, async (s) => {
        const stated = Array.from({ length: 5 }, (_, i) =>
          makeFact({ subjectId: i === 4 ? null : 'bob', text: `stated ${i}`, attribution: says('ann') }),
        );
        const ended = makeFact({
          subjectId: 'cy',
          text: 'ended',
          attribution: says('ann'),
          validUntil: at(2),
        });
        const quoting = makeFact({ subjectId: 'cy', text: 'quoted', sources: [source('ann', 'm1')] });
        const other = makeFact({ subjectId: 'bob', text: 'own', sources: [source('bob', 'm2')] });
        const elsewhere = makeFact({
          guildId: G2,
          text: 'g2',
          attribution: says('ann'),
          sources: [source('ann', 'm3')],
        });
        await s.facts.insert([...stated, ended, quoting, other, elsewhere]);
        const ids = (facts: readonly { id: string }[]) => facts.map((f) => f.id);
        const first = await s.facts.statedBy(G1, 'ann', { limit: 4 });
        expect(ids(first)).toEqual(ids(stated.slice(0, 4)));
        const rest = await s.facts.statedBy(G1, 'ann', { limit: 4, afterId: first[3]?.id as string });
        expect(ids(rest)).toEqual(ids([stated[4] as { id: string }, ended]));
        expect(await s.facts.statedBy(G1, 'nobody', { limit: 4 })).toEqual([]);
        expect(ids(await s.facts.quoting(G1, 'ann', { limit: 10 }))).toEqual([quoting.id]);
        expect(ids(await s.facts.quoting(G2, 'ann', { limit: 10 }))).toEqual([elsewhere.id]);
        expect(ids(await s.facts.quoting(G1, 'bob', { limit: 10, afterId: other.id }))).toEqual([]);
      }));

    it('counts the history entries of a set of facts', () =>
      withStore(o, async (s) => {
        const a = makeFact({ text: 'a' });
        const b = makeFact({ text: 'b' });
        await s.facts.insert([a, b]);
        await s.facts.appendHistory([makeHistory(a), makeHistory(a, { kind: 'reinforced' }), makeHistory(b)]);
        expect(await s.facts.countHistory(G1, [a.id, b.id, a.id])).toBe(3);
        expect(await s.facts.countHistory(G1, [b.id, 'missing'])).toBe(1);
        expect(await s.facts.countHistory(G2, [a.id])).toBe(0);
        expect(await s.facts.countHistory(G1, [])).toBe(0);
      }));

    it('finds every relation touching nodes or citing facts, active or ended', () =>
      withStore(o, async (s) => {
        const base = { guildId: G1, polarity: 'neutral' as const, confidence: 0.8 };
        await s.graph.upsertRelation({
          ...base,
          src: user('ann'),
          dst: entity('tea'),
          verb: 'likes',
          evidenceFactId: 'f1',
          at: at(0),
        });
        await s.graph.upsertRelation({
          ...base,
          src: user('bob'),
          dst: user('ann'),
          verb: 'knows',
          evidenceFactId: 'f2',
          at: at(0),
        });
        await s.graph.upsertRelation({
          ...base,
          src: user('bob'),
          dst: entity('tea'),
          verb: 'hates',
          evidenceFactId: 'f3',
          at: at(0),
        });
        await s.graph.upsertRelation({
          ...base,
          guildId: G2,
          src: user('ann'),
          dst: entity('tea'),
          verb: 'likes',
          evidenceFactId: 'f1',
          at: at(0),
        });
        // Ending the hates edge (its only evidence dropped) keeps it as an ended relation.
        expect(await s.graph.dropEvidence(G1, ['f3'], at(5))).toBe(1);
        const verbs = (rs: readonly { verb: string }[]) => rs.map((r) => r.verb).sort();
        expect(verbs(await s.graph.relationsTouching(G1, [user('ann')]))).toEqual(['knows', 'likes']);
        const tea = await s.graph.relationsTouching(G1, [entity('tea'), user('ann')]);
        expect(verbs(tea)).toEqual(['hates', 'knows', 'likes']);
        expect(tea.find((r) => r.verb === 'hates')?.validUntil).toEqual(at(5));
        expect(verbs(await s.graph.relationsCiting(G1, ['f1', 'f2']))).toEqual(['knows', 'likes']);
        expect(await s.graph.relationsCiting(G1, ['f3'])).toEqual([]);
        expect(await s.graph.relationsTouching(G1, [user('nobody')])).toEqual([]);
        expect(await s.graph.relationsCiting(G1, [])).toEqual([]);
      }));
  });
}
