import { describe, expect, it } from 'vitest';
import { createGraphService } from '../../src/graph/graph-service.js';
import { profileSimilarity } from '../../src/graph/similar-users.js';
import type { NodeRef } from '../../src/model/graph.js';
import { DAY, G, G2, makeFact, seed, T0, world } from '../helpers/world.js';

const user = (id: string): NodeRef => ({ type: 'user', id });
const entity = (id: string): NodeRef => ({ type: 'entity', id });

async function graphWorld() {
  const w = world();
  let n = 0;
  const rel = async (
    src: NodeRef,
    dst: NodeRef,
    verb: string,
    polarity: 'positive' | 'negative' | 'neutral',
    guildId = G,
  ) => {
    const f = makeFact({ text: `evidence ${++n}`, subjectId: src.type === 'user' ? src.id : null, guildId });
    await seed(w.store, w.embedder, [f]);
    await w.store.graph.upsertRelation({
      guildId,
      src,
      dst,
      verb,
      polarity,
      confidence: 0.9,
      evidenceFactId: f.id,
      at: T0,
    });
    return f;
  };
  for (const [slug, name, kind] of [
    ['golf', 'Golf', 'activity'],
    ['jazz', 'Jazz', 'concept'],
    ['chess', 'Chess', 'activity'],
    ['bobby', 'Bobby', 'person'],
  ] as const)
    await w.store.graph.upsertEntity({ guildId: G, slug, name, kind, aliases: [name.toLowerCase()], at: T0 });
  await w.store.graph.linkEntityToUser(G, 'bobby', 'u2');
  const graph = createGraphService({
    store: w.store,
    clock: w.clock,
    access: w.access,
    isBot: (id) => w.bots.has(id),
  });
  return { w, rel, graph };
}

describe('graph queries', () => {
  it('between reads both directions and collapses twins onto members', async () => {
    const { rel, graph } = await graphWorld();
    await rel(user('u1'), user('u2'), 'friends_with', 'positive');
    await rel(entity('bobby'), user('u1'), 'argues_with', 'negative');
    await rel(user('u1'), user('u3'), 'knows', 'neutral');
    const edges = await graph.between({ guildId: G, a: 'u2', b: 'u1' });
    expect(edges.map((e) => `${e.src.id}-${e.verb}-${e.dst.id}`).sort()).toEqual([
      'u1-friends_with-u2',
      'u2-argues_with-u1',
    ]);
    expect(await graph.between({ guildId: G2, a: 'u1', b: 'u2' })).toEqual([]);
  });

  it('relationsOf lists every edge of a member, twin included, with decayed weights', async () => {
    const { w, rel, graph } = await graphWorld();
    await rel(user('u2'), entity('golf'), 'loves', 'positive');
    await rel(entity('bobby'), entity('jazz'), 'likes', 'positive');
    const edges = await graph.relationsOf({ guildId: G, userId: 'u2' });
    expect(edges.map((e) => e.dst.id).sort()).toEqual(['golf', 'jazz']);
    expect(edges.every((e) => e.src.type === 'user' && e.src.id === 'u2')).toBe(true);
    const fresh = edges[0]?.weight ?? 0;
    w.clock.advanceDays(90);
    const aged = await graph.relationsOf({ guildId: G, userId: 'u2' });
    expect(aged[0]?.weight).toBeCloseTo((fresh * Math.exp(-(90 + 1) / 90)) / Math.exp(-1 / 90), 4);
  });

  it('entityStances and usersForEntity bucket by polarity', async () => {
    const { rel, graph } = await graphWorld();
    await rel(user('u1'), entity('golf'), 'loves', 'positive');
    await rel(user('u3'), entity('golf'), 'hates', 'negative');
    await rel(entity('bobby'), entity('golf'), 'plays', 'neutral');
    const s = await graph.entityStances({ guildId: G, entity: 'GOLF' });
    expect(s.entitySlug).toBe('golf');
    expect(s.positive.map((e) => e.src.id)).toEqual(['u1']);
    expect(s.negative.map((e) => e.src.id)).toEqual(['u3']);
    expect(s.neutral.map((e) => e.src.id)).toEqual(['u2']);
    expect(s.totalEvidence).toBe(3);
    const users = await graph.usersForEntity({ guildId: G, entity: 'golf' });
    expect(users).toMatchObject({ positive: ['u1'], negative: ['u3'], neutral: ['u2'] });
    expect((await graph.entityStances({ guildId: G, entity: 'nothing' })).entitySlug).toBeNull();
  });

  it('usersForEntity lists members whose facts mention the entity', async () => {
    const { w, graph } = await graphWorld();
    const f = makeFact({ text: 'Dan mentioned golf', subjectId: 'u4' });
    await seed(w.store, w.embedder, [f], { links: [['entity', 'golf', 'about_entity']] });
    expect((await graph.usersForEntity({ guildId: G, entity: 'golf' })).mentioned).toEqual(['u4']);
  });

  it('shared and sharedN intersect entity neighbours', async () => {
    const { rel, graph } = await graphWorld();
    await rel(user('u1'), entity('golf'), 'loves', 'positive');
    await rel(user('u1'), entity('jazz'), 'likes', 'positive');
    await rel(entity('bobby'), entity('golf'), 'hates', 'negative');
    await rel(user('u3'), entity('golf'), 'plays', 'neutral');
    await rel(user('u3'), entity('jazz'), 'likes', 'positive');
    const pair = await graph.shared({ guildId: G, a: 'u1', b: 'u2' });
    expect(pair.map((s) => s.slug)).toEqual(['golf']);
    expect(pair[0]?.edges[1]?.[0]?.polarity).toBe('negative');
    expect((await graph.sharedN({ guildId: G, userIds: ['u1', 'u2', 'u3'] })).map((s) => s.slug)).toEqual([
      'golf',
    ]);
    expect((await graph.sharedN({ guildId: G, userIds: ['u1', 'u3'] })).map((s) => s.slug).sort()).toEqual([
      'golf',
      'jazz',
    ]);
    expect(await graph.sharedN({ guildId: G, userIds: ['u1'] })).toEqual([]);
  });

  it('similarUsers is polarity-aware', async () => {
    const { rel, graph } = await graphWorld();
    await rel(user('u1'), entity('golf'), 'loves', 'positive');
    await rel(user('u1'), entity('jazz'), 'likes', 'positive');
    await rel(user('u3'), entity('golf'), 'loves', 'positive');
    await rel(user('u3'), entity('jazz'), 'likes', 'positive');
    await rel(user('u4'), entity('golf'), 'hates', 'negative');
    await rel(user('u4'), entity('jazz'), 'likes', 'positive');
    const sims = await graph.similarUsers({ guildId: G, userId: 'u1' });
    expect(sims[0]).toMatchObject({ userId: 'u3', score: 1, sharedEntities: 2, conflictingEntities: 0 });
    expect(sims.find((s) => s.userId === 'u4')).toBeUndefined();
    expect(profileSimilarity(new Map([['a', 1]]), new Map([['a', -1]])).score).toBe(0);
    expect(
      profileSimilarity(
        new Map([
          ['a', 1],
          ['b', 1],
        ]),
        new Map([
          ['a', 1],
          ['b', -1],
        ]),
      ).conflicting,
    ).toBe(1);
  });

  it('neighbors walks both directions with paths, strengths and evidence', async () => {
    const { rel, graph } = await graphWorld();
    const e1 = await rel(user('u3'), user('u1'), 'mentors', 'positive');
    const e2 = await rel(user('u3'), entity('chess'), 'plays', 'neutral');
    const near = await graph.neighbors({ guildId: G, userId: 'u1', depth: 1 });
    expect(near.map((n) => n.node)).toEqual([user('u3')]);
    const far = await graph.neighbors({ guildId: G, userId: 'u1', depth: 2 });
    const chess = far.find((n) => n.node.id === 'chess');
    expect(chess).toMatchObject({
      depth: 2,
      path: ['user:u1', 'user:u3', 'entity:chess'],
      verbs: ['mentors', 'plays'],
    });
    expect(chess?.evidenceFactIds).toEqual([e1.id, e2.id]);
    const [first] = near;
    expect(chess?.strength).toBeCloseTo((first?.strength ?? 0) ** 2, 6);
  });

  it('hides opted-out members and bots', async () => {
    const { w, rel, graph } = await graphWorld();
    await rel(user('u1'), user('u3'), 'friends_with', 'positive');
    await rel(user('u1'), user('bot'), 'likes', 'positive');
    w.bots.add('bot');
    await w.store.consent.setOptOut(G, 'u3', true, new Date(T0.getTime() + DAY));
    expect(await graph.relationsOf({ guildId: G, userId: 'u1' })).toEqual([]);
    expect(await graph.neighbors({ guildId: G, userId: 'u1' })).toEqual([]);
    expect(await graph.between({ guildId: G, a: 'u1', b: 'u3' })).toEqual([]);
  });

  it('keeps guilds apart in every query', async () => {
    const { rel, graph } = await graphWorld();
    await rel(user('u1'), user('u2'), 'friends_with', 'positive');
    await rel(user('u1'), entity('golf'), 'loves', 'positive');
    await rel(user('u2'), entity('golf'), 'loves', 'positive');
    const other = { guildId: G2 };
    expect(await graph.relationsOf({ ...other, userId: 'u1' })).toEqual([]);
    expect(await graph.neighbors({ ...other, userId: 'u1' })).toEqual([]);
    expect(await graph.shared({ ...other, a: 'u1', b: 'u2' })).toEqual([]);
    expect(await graph.similarUsers({ ...other, userId: 'u1' })).toEqual([]);
    expect((await graph.entityStances({ ...other, entity: 'golf' })).entitySlug).toBeNull();
    expect((await graph.usersForEntity({ ...other, entity: 'golf' })).positive).toEqual([]);
  });
});
