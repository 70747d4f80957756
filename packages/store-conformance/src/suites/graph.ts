import type { NodeRef } from '@permafrost/core';
import { relationBaseWeight } from '@permafrost/core/store';
import { describe, expect, it } from 'vitest';
import { at, type ConformanceOptions, days, G1, G2, makeFact, makeLink, withStore } from '../fixtures.js';

const user = (id: string): NodeRef => ({ type: 'user', id });
const entity = (id: string): NodeRef => ({ type: 'entity', id });
const rel = (
  src: NodeRef,
  dst: NodeRef,
  verb: string,
  evidenceFactId: string,
  o: {
    confidence?: number;
    at?: Date;
    polarity?: 'positive' | 'negative' | 'neutral';
    guildId?: string;
  } = {},
) => ({
  guildId: o.guildId ?? G1,
  src,
  dst,
  verb,
  polarity: o.polarity ?? ('positive' as const),
  confidence: o.confidence ?? 0.8,
  evidenceFactId,
  at: o.at ?? at(0),
});

export function graphSuite(o: ConformanceOptions): void {
  describe('graph', () => {
    it('adds links idempotently and finds facts by node, active only by default', () =>
      withStore(o, async (s) => {
        const live = makeFact({ text: 'alice likes movies' });
        const dead = makeFact({ text: 'alice liked tea', validUntil: at(1) });
        await s.facts.insert([live, dead]);
        const links = [
          makeLink(live),
          makeLink(live),
          makeLink(dead),
          makeLink(live, { nodeType: 'entity', nodeId: 'movies', kind: 'about_entity' }),
        ];
        await s.graph.addLinks(links);
        await s.graph.addLinks([makeLink(live)]);
        const mine = await s.graph.linksForNodes(G1, [user('u1')], { limitPerNode: 50 });
        expect(mine.map((l) => l.factId)).toEqual([live.id]);
        const all = await s.graph.linksForNodes(G1, [user('u1')], { limitPerNode: 50, validity: 'any' });
        expect(all.map((l) => l.factId).sort()).toEqual([live.id, dead.id].sort());
        expect(
          (await s.graph.linksForNodes(G1, [entity('movies')], { limitPerNode: 50 })).map((l) => l.kind),
        ).toEqual(['about_entity']);
        expect((await s.graph.linksForFacts(G1, [live.id])).length).toBe(2);
        expect(await s.graph.linksForNodes(G2, [user('u1')], { limitPerNode: 50 })).toEqual([]);
      }));

    it('limits links per node to the newest facts', () =>
      withStore(o, async (s) => {
        const facts = Array.from({ length: 5 }, (_, i) => makeFact({ text: `fact ${i}`, createdAt: at(i) }));
        await s.facts.insert(facts);
        await s.graph.addLinks(facts.map((f) => makeLink(f)));
        const got = await s.graph.linksForNodes(G1, [user('u1'), user('u2')], { limitPerNode: 2 });
        expect(got.map((l) => l.factId)).toEqual([facts[4]?.id, facts[3]?.id]);
      }));

    it('merges repeated relations: occurrences, max confidence, deduplicated evidence, weight', () =>
      withStore(o, async (s) => {
        await s.graph.upsertRelation(rel(user('u1'), entity('movies'), 'likes', 'e1', { confidence: 0.6 }));
        await s.graph.upsertRelation(
          rel(user('u1'), entity('movies'), 'likes', 'e1', { confidence: 0.6, at: at(5) }),
        );
        const r = await s.graph.upsertRelation(
          rel(user('u1'), entity('movies'), 'likes', 'e2', { confidence: 0.9, at: at(9) }),
        );
        expect(r).toMatchObject({
          occurrences: 3,
          confidence: 0.9,
          evidenceFactIds: ['e1', 'e2'],
          validUntil: null,
        });
        expect(r.weight).toBeCloseTo(relationBaseWeight(3, 0.9), 6);
        expect(r.updatedAt).toEqual(at(9));
        expect(r.validFrom).toEqual(at(0));
        expect(await s.graph.relationsOf(G1, [user('u1')], 10)).toHaveLength(1);
      }));

    it('keeps the eight most recent evidence ids', () =>
      withStore(o, async (s) => {
        let last = await s.graph.upsertRelation(rel(user('u1'), user('u2'), 'friends_with', 'e0'));
        for (let i = 1; i < 11; i++)
          last = await s.graph.upsertRelation(rel(user('u1'), user('u2'), 'friends_with', `e${i}`));
        expect(last.evidenceFactIds).toEqual(['e3', 'e4', 'e5', 'e6', 'e7', 'e8', 'e9', 'e10']);
        expect(last.occurrences).toBe(11);
      }));

    it('returns relations in both directions, heaviest first, and filters by destination and polarity', () =>
      withStore(o, async (s) => {
        await s.graph.upsertRelation(rel(user('u1'), entity('tea'), 'likes', 'e1', { confidence: 0.5 }));
        await s.graph.upsertRelation(
          rel(user('u2'), entity('tea'), 'hates', 'e2', { confidence: 0.9, polarity: 'negative' }),
        );
        await s.graph.upsertRelation(rel(user('u2'), user('u1'), 'admires', 'e3', { confidence: 0.7 }));
        const ofU1 = await s.graph.relationsOf(G1, [user('u1')], 10);
        expect(ofU1.map((r) => r.verb)).toEqual(['admires', 'likes']);
        const ofTea = await s.graph.relationsOf(G1, [entity('tea')], 10);
        expect(ofTea.map((r) => [r.srcId, r.verb, r.polarity])).toEqual([
          ['u2', 'hates', 'negative'],
          ['u1', 'likes', 'positive'],
        ]);
        expect(await s.graph.relationsOf(G2, [user('u1')], 10)).toEqual([]);
      }));

    it('reads several nodes at once: each node keeps its own heaviest edges, a shared edge comes once', () =>
      withStore(o, async (s) => {
        await s.graph.upsertRelation(rel(user('u1'), entity('tea'), 'likes', 'e1', { confidence: 0.9 }));
        await s.graph.upsertRelation(rel(user('u1'), entity('coffee'), 'likes', 'e2', { confidence: 0.5 }));
        await s.graph.upsertRelation(rel(user('u2'), user('u1'), 'admires', 'e3', { confidence: 0.7 }));
        await s.graph.upsertRelation(
          rel(user('u2'), entity('tea'), 'hates', 'e4', { confidence: 0.6, polarity: 'negative' }),
        );
        await s.graph.upsertRelation(rel(user('u3'), entity('tea'), 'likes', 'e5', { guildId: G2 }));
        const both = await s.graph.relationsOf(G1, [user('u1'), user('u3'), user('u2')], 2);
        const key = (r: { srcId: string; verb: string; dstId: string }) => `${r.srcId} ${r.verb} ${r.dstId}`;
        // u1: likes tea (0.9) and admired by u2 (0.7), not coffee (0.5); u3 has nothing in G1;
        // u2: admires u1 (already listed for u1) and hates tea.
        expect(both.map(key).sort()).toEqual(['u1 likes tea', 'u2 admires u1', 'u2 hates tea']);
        expect(await s.graph.relationsOf(G1, [user('u1'), user('u2')], 0)).toEqual([]);
        expect(await s.graph.relationsOf(G1, [], 5)).toEqual([]);
      }));

    it('drops evidence: weakens edges that keep evidence and ends edges left with none', () =>
      withStore(o, async (s) => {
        await s.graph.upsertRelation(rel(user('u1'), entity('tea'), 'likes', 'e1'));
        const kept = await s.graph.upsertRelation(rel(user('u1'), entity('tea'), 'likes', 'e2'));
        await s.graph.upsertRelation(rel(user('u1'), entity('coffee'), 'likes', 'e1'));
        expect(await s.graph.dropEvidence(G1, ['e1'], days(1))).toBe(2);
        const rels = await s.graph.relationsOf(G1, [user('u1')], 10);
        expect(rels.map((r) => r.dstId)).toEqual(['tea']);
        expect(rels[0]?.evidenceFactIds).toEqual(['e2']);
        expect(rels[0]?.weight).toBeCloseTo(kept.weight * 0.8, 5);
        const fresh = await s.graph.upsertRelation(
          rel(user('u1'), entity('coffee'), 'likes', 'e9', { at: days(2) }),
        );
        expect(fresh.occurrences).toBe(1);
        expect(fresh.validFrom).toEqual(days(2));
      }));

    it('creates entities, merges aliases, counts facts and resolves aliases', () =>
      withStore(o, async (s) => {
        await s.graph.upsertEntity({
          guildId: G1,
          slug: 'movies',
          name: 'Movies',
          kind: 'concept',
          aliases: ['movies', 'movie'],
          at: at(0),
        });
        const merged = await s.graph.upsertEntity({
          guildId: G1,
          slug: 'movies',
          name: 'Films',
          kind: 'concept',
          aliases: ['film', 'movie'],
          at: at(5),
        });
        expect([...merged.aliases].sort()).toEqual(['film', 'movie', 'movies']);
        expect(merged.name).toBe('Movies');
        await s.graph.bumpEntityFacts(G1, 'movies', 2);
        await s.graph.bumpEntityFacts(G1, 'movies', 1);
        expect((await s.graph.getEntities(G1, ['movies', 'nope']))[0]?.factCount).toBe(3);
        const found = await s.graph.findEntitiesByAlias(G1, ['film', 'chess']);
        expect(found).toEqual([{ alias: 'film', slug: 'movies' }]);
        expect(await s.graph.findEntitiesByAlias(G2, ['film'])).toEqual([]);
      }));

    it('merges an entity by core rule: aliases united in order, updatedAt refreshed, the rest kept', () =>
      withStore(o, async (s) => {
        const first = await s.graph.upsertEntity({
          guildId: G1,
          slug: 'tea',
          name: 'Tea',
          kind: 'concept',
          aliases: ['tea', 'chai', 'tea'],
          at: at(0),
        });
        expect(first).toEqual({
          guildId: G1,
          slug: 'tea',
          name: 'Tea',
          kind: 'concept',
          aliases: ['tea', 'chai'],
          factCount: 0,
          linkedUserId: null,
          createdAt: at(0),
          updatedAt: at(0),
        });
        await s.graph.bumpEntityFacts(G1, 'tea', 4);
        await s.graph.linkEntityToUser(G1, 'tea', 'u3');
        const merged = await s.graph.upsertEntity({
          guildId: G1,
          slug: 'tea',
          name: 'Black tea',
          kind: 'product',
          aliases: ['black tea', 'chai'],
          at: at(9),
        });
        const expected = {
          ...first,
          aliases: ['tea', 'chai', 'black tea'],
          factCount: 4,
          linkedUserId: 'u3',
          updatedAt: at(9),
        };
        expect(merged).toEqual(expected);
        expect(await s.graph.getEntities(G1, ['tea'])).toEqual([expected]);
        expect(await s.graph.findEntitiesByAlias(G1, ['black tea'])).toEqual([
          { alias: 'black tea', slug: 'tea' },
        ]);
      }));

    it('links an entity to a member (twin) and unlinks it', () =>
      withStore(o, async (s) => {
        await s.graph.upsertEntity({
          guildId: G1,
          slug: 'nolan',
          name: 'Nolan',
          kind: 'person',
          aliases: ['nolan'],
          at: at(0),
        });
        await s.graph.linkEntityToUser(G1, 'nolan', 'u7');
        expect((await s.graph.entitiesLinkedTo(G1, ['u7', 'u8'])).map((e) => e.slug)).toEqual(['nolan']);
        expect(await s.graph.entitiesLinkedTo(G2, ['u7'])).toEqual([]);
        await s.graph.linkEntityToUser(G1, 'nolan', null);
        expect(await s.graph.entitiesLinkedTo(G1, ['u7'])).toEqual([]);
      }));
  });
}
