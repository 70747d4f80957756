import type { Entity, Fact, Link, MemoryStore, NodeRef, Relation } from '@permafrost/core';
import type { EntityUpsert, GraphWrites, RelationUpsert } from '@permafrost/core/store';
import { describe, expect, it } from 'vitest';
import { at, type ConformanceOptions, G1, G2, makeFact, makeLink, withStore } from '../fixtures.js';

const user = (id: string): NodeRef => ({ type: 'user', id });
const entity = (id: string): NodeRef => ({ type: 'entity', id });

/** The graph writes of two new facts of `guildId`: entities named twice, an edge seen twice. */
function writesOf(guildId: string, facts: readonly [Fact, Fact]): GraphWrites {
  const [a, b] = facts;
  const e = (slug: string, aliases: string[], seconds: number, factDelta?: number): EntityUpsert => ({
    guildId,
    slug,
    name: slug.toUpperCase(),
    kind: 'activity',
    aliases,
    at: at(seconds),
    ...(factDelta === undefined ? {} : { factDelta }),
  });
  const r = (
    dst: NodeRef,
    verb: string,
    fact: Fact,
    confidence: number,
    seconds: number,
  ): RelationUpsert => ({
    guildId,
    src: user('u1'),
    dst,
    verb,
    polarity: 'positive',
    confidence,
    evidenceFactId: fact.id,
    at: at(seconds),
  });
  return {
    entities: [
      e('chess', ['chess'], 10, 1),
      e('stored', ['again'], 10, 1),
      e('chess', ['chess openings', 'chess'], 11, 1),
      e('go', ['go', 'baduk'], 11),
      e('stored', ['stored thing'], 12, -9),
    ],
    relations: [
      r(entity('chess'), 'plays', a, 0.6, 10),
      r(entity('go'), 'plays', a, 0.7, 10),
      r(entity('chess'), 'plays', b, 0.9, 11),
    ],
    links: [
      makeLink({ ...a, guildId }),
      makeLink({ ...a, guildId }, { nodeType: 'entity', nodeId: 'chess', kind: 'about_entity' }),
      makeLink({ ...b, guildId }, { nodeType: 'entity', nodeId: 'chess', kind: 'about_entity' }),
    ],
  };
}

/** What a guild's graph holds, without its guild id and with its facts named by position. */
async function graphOf(s: MemoryStore, guildId: string, facts: readonly Fact[]) {
  const nth = (id: string) => `fact ${facts.findIndex((f) => f.id === id)}`;
  const entities: Entity[] = await s.graph.getEntities(guildId, ['chess', 'go', 'stored']);
  const relations: Relation[] = await s.graph.relationsTouching(guildId, [user('u1')]);
  const links: Link[] = await s.graph.linksForFacts(
    guildId,
    facts.map((f) => f.id),
  );
  return {
    entities: entities.map(({ guildId: _g, ...e }) => e),
    relations: relations
      .map(({ guildId: _g, ...r }) => ({ ...r, evidenceFactIds: r.evidenceFactIds.map(nth) }))
      .sort((x, y) => (x.dstId < y.dstId ? -1 : 1)),
    aliases: await s.graph.findEntitiesByAlias(guildId, ['chess openings', 'baduk', 'stored thing', 'again']),
    links: links.map((l) => `${nth(l.factId)} ${l.nodeType}:${l.nodeId} ${l.kind}`).sort(),
  };
}

export function graphWritesSuite(o: ConformanceOptions): void {
  describe('graph writes', () => {
    it('applies the graph writes of new facts as the single upserts one after another would', () =>
      withStore(o, async (s) => {
        const seed = (guildId: string): EntityUpsert => ({
          guildId,
          slug: 'stored',
          name: 'Stored',
          kind: 'concept',
          aliases: ['stored'],
          at: at(0),
          factDelta: 3,
        });
        const one: [Fact, Fact] = [makeFact({ text: 'u1 plays chess' }), makeFact({ text: 'u1 plays go' })];
        const two: [Fact, Fact] = [
          makeFact({ guildId: G2, text: 'u1 plays chess' }),
          makeFact({ guildId: G2, text: 'u1 plays go' }),
        ];
        await s.facts.insert([...one, ...two]);
        await s.graph.upsertEntity(seed(G1));
        await s.graph.upsertEntity(seed(G2));
        await s.graph.applyGraphWrites(writesOf(G1, one));
        const sequential = writesOf(G2, two);
        for (const e of sequential.entities) await s.graph.upsertEntity(e);
        for (const r of sequential.relations) await s.graph.upsertRelation(r);
        await s.graph.addLinks(sequential.links);

        const applied = await graphOf(s, G1, one);
        expect(applied.entities).toHaveLength(3);
        expect(applied.entities.find((e) => e.slug === 'chess')).toMatchObject({
          aliases: ['chess', 'chess openings'],
          factCount: 2,
          updatedAt: at(11),
        });
        expect(applied.entities.find((e) => e.slug === 'go')?.factCount).toBe(0);
        // A fact count never goes below 0; aliases are united with the stored ones.
        expect(applied.entities.find((e) => e.slug === 'stored')).toMatchObject({
          name: 'Stored',
          aliases: ['stored', 'again', 'stored thing'],
          factCount: 0,
        });
        expect(applied.relations.find((r) => r.dstId === 'chess')).toMatchObject({
          occurrences: 2,
          confidence: 0.9,
          evidenceFactIds: ['fact 0', 'fact 1'],
        });
        expect(applied.links).toEqual([
          'fact 0 entity:chess about_entity',
          'fact 0 user:u1 subject_of',
          'fact 1 entity:chess about_entity',
        ]);
        expect(applied.aliases.map((a) => a.slug).sort()).toEqual(['chess', 'go', 'stored', 'stored']);
        expect(applied).toEqual(await graphOf(s, G2, two));
      }));

    it('applies nothing for empty graph writes', () =>
      withStore(o, async (s) => {
        await s.graph.applyGraphWrites({ entities: [], relations: [], links: [] });
        expect(await s.graph.getEntities(G1, ['chess'])).toEqual([]);
        expect(await s.graph.relationsTouching(G1, [user('u1')])).toEqual([]);
      }));

    it('moves the fact count by an upsert’s factDelta: set on creation, added on merge, never below 0', () =>
      withStore(o, async (s) => {
        const upsert = (factDelta: number | undefined, seconds: number) =>
          s.graph.upsertEntity({
            guildId: G1,
            slug: 'tea',
            name: 'Tea',
            kind: 'concept',
            aliases: ['tea'],
            at: at(seconds),
            ...(factDelta === undefined ? {} : { factDelta }),
          });
        expect((await upsert(2, 0)).factCount).toBe(2);
        expect((await upsert(undefined, 1)).factCount).toBe(2);
        expect((await upsert(3, 2)).factCount).toBe(5);
        expect((await upsert(-9, 3)).factCount).toBe(0);
        expect((await s.graph.getEntities(G1, ['tea']))[0]?.factCount).toBe(0);
      }));

    it('changes nothing readers see when graph writes are only prepared', () =>
      withStore(o, async (s) => {
        const one: [Fact, Fact] = [makeFact({ text: 'u1 plays chess' }), makeFact({ text: 'u1 plays go' })];
        await s.facts.insert(one);
        await s.graph.upsertEntity({
          guildId: G1,
          slug: 'stored',
          name: 'Stored',
          kind: 'concept',
          aliases: ['stored'],
          at: at(0),
        });
        const before = await graphOf(s, G1, one);
        await s.graph.prepareGraphWrites(writesOf(G1, one));
        await s.graph.prepareGraphWrites(writesOf(G1, one));
        expect(await graphOf(s, G1, one)).toEqual(before);
        expect(before.entities.map((e) => e.slug)).toEqual(['stored']);
        expect(await s.graph.findEntitiesByAlias(G1, ['chess', 'go', 'baduk', 'stored thing'])).toEqual([]);
        expect(await s.graph.relationsOf(G1, [user('u1')], 10)).toEqual([]);
        expect(await s.graph.linksForNodes(G1, [user('u1'), entity('chess')], { limitPerNode: 10 })).toEqual(
          [],
        );
      }));

    it('applies what follows a preparation as if nothing was prepared: a part of it, after another writer', () =>
      withStore(o, async (s) => {
        const one: [Fact, Fact] = [makeFact({ text: 'u1 plays chess' }), makeFact({ text: 'u1 plays go' })];
        const two: [Fact, Fact] = [
          makeFact({ guildId: G2, text: 'u1 plays chess' }),
          makeFact({ guildId: G2, text: 'u1 plays go' }),
        ];
        await s.facts.insert([...one, ...two]);
        // Only the first fact turns out new: its entities, its first relation and its links.
        const part = (w: GraphWrites): GraphWrites => ({
          entities: w.entities.slice(0, 2),
          relations: w.relations.slice(0, 1),
          links: w.links.slice(0, 2),
        });
        const other = (guildId: string): EntityUpsert => ({
          guildId,
          slug: 'chess',
          name: 'Chess',
          kind: 'activity',
          aliases: ['chess', 'xadrez'],
          at: at(5),
          factDelta: 4,
        });
        await s.graph.prepareGraphWrites(writesOf(G1, one));
        // Another writer names an entity of the preparation before the writes come.
        await s.graph.upsertEntity(other(G1));
        await s.graph.applyGraphWrites(part(writesOf(G1, one)));
        await s.graph.upsertEntity(other(G2));
        await s.graph.applyGraphWrites(part(writesOf(G2, two)));

        const applied = await graphOf(s, G1, one);
        expect(applied).toEqual(await graphOf(s, G2, two));
        expect(applied.entities.map((e) => e.slug).sort()).toEqual(['chess', 'stored']);
        expect(applied.entities.find((e) => e.slug === 'chess')).toMatchObject({
          aliases: ['chess', 'xadrez'],
          factCount: 5,
        });
        expect(applied.relations.map((r) => r.dstId)).toEqual(['chess']);
        // What was prepared and never applied is nowhere.
        expect(await s.graph.getEntities(G1, ['go'])).toEqual([]);
        expect(await s.graph.findEntitiesByAlias(G1, ['go', 'baduk', 'chess openings'])).toEqual([]);
        expect(await s.graph.findEntitiesByAlias(G1, ['xadrez', 'again'])).toEqual([
          { alias: 'xadrez', slug: 'chess' },
          { alias: 'again', slug: 'stored' },
        ]);
      }));
  });
}
