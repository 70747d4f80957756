import { describe, expect, it } from 'vitest';
import { ChannelName } from '../../src/model/enums.js';
import type { ChannelContext } from '../../src/recall/channel-types.js';
import { entityChannel, entityHintChannel } from '../../src/recall/entity-channel.js';
import { graphHopChannel } from '../../src/recall/graph-hop-channel.js';
import { RecallSession } from '../../src/recall/recall-session.js';
import { baselineChannel, linksChannel, pairChannel } from '../../src/recall/subject-channels.js';
import { keywordChannel, vectorChannel } from '../../src/recall/text-channels.js';
import { G, makeFact, seed, T0, world } from '../helpers/world.js';

function ctx(w: ReturnType<typeof world>, overrides: Partial<ChannelContext> = {}): ChannelContext {
  const deps = w.deps();
  return {
    deps,
    session: new RecallSession(deps.store, deps.embedder),
    guildId: G,
    text: null,
    filter: { guildId: G },
    validity: 'active',
    subjectIds: [],
    subjectNodes: Promise.resolve([]),
    pairs: [],
    limit: 50,
    maxPerSubject: 4,
    ...overrides,
  };
}

describe('vector channel', () => {
  it('searches every vector in scope, with no recency cap', async () => {
    const w = world();
    const old = makeFact({ text: 'Alice plays the theremin', createdAt: new Date(T0.getTime() - 1e10) });
    const noise = Array.from({ length: 600 }, (_, i) =>
      makeFact({ text: `filler message number ${i} about nothing` }),
    );
    await seed(w.store, w.embedder, [old, ...noise]);
    const [q] = await w.embedder.embed(['theremin']);
    const list = await vectorChannel(ctx(w, { text: 'theremin' }), q as Float32Array);
    expect(list.hits[0]?.factId).toBe(old.id);
  });

  it('keeps subject scope without server facts unless asked', async () => {
    const w = world();
    const mine = makeFact({ text: 'likes tea', subjectId: 'u1' });
    const server = makeFact({ text: 'the server likes tea', subjectId: null });
    const other = makeFact({ text: 'likes tea too', subjectId: 'u2' });
    await seed(w.store, w.embedder, [mine, server, other]);
    const [q] = await w.embedder.embed(['tea']);
    const scoped = await vectorChannel(
      ctx(w, { filter: { guildId: G, subjectIds: ['u1'], includeServer: false } }),
      q as Float32Array,
    );
    expect(scoped.hits.map((h) => h.factId)).toEqual([mine.id]);
    const withServer = await vectorChannel(
      ctx(w, { filter: { guildId: G, subjectIds: ['u1'], includeServer: true } }),
      q as Float32Array,
    );
    expect(withServer.hits.map((h) => h.factId).sort()).toEqual([mine.id, server.id].sort());
  });
});

describe('keyword channel', () => {
  it('uses OR semantics over analysed terms', async () => {
    const w = world();
    const a = makeFact({ text: 'Alice adopted a greyhound' });
    const b = makeFact({ text: 'Bob bakes sourdough bread' });
    await seed(w.store, w.embedder, [a, b]);
    const list = await keywordChannel(
      ctx(w, { text: 'does anyone here bake or own dogs like a greyhound?' }),
    );
    expect(list.hits.map((h) => h.factId).sort()).toEqual([a.id, b.id].sort());
    expect(list.channel).toBe(ChannelName.KEYWORD);
    expect((await keywordChannel(ctx(w, { text: 'the and of' }))).hits).toEqual([]);
  });
});

describe('subject channels', () => {
  it('links: facts incident on the subjects and their twins', async () => {
    const w = world();
    const about = makeFact({ text: 'Bob says Alice is his sister', subjectId: 'u2' });
    const twin = makeFact({ text: 'Ali won the chess cup', subjectId: null });
    await seed(w.store, w.embedder, [about], { links: [['user', 'u1', 'about_user']] });
    await seed(w.store, w.embedder, [twin], { links: [['entity', 'ali', 'about_entity']] });
    await w.store.graph.upsertEntity({
      guildId: G,
      slug: 'ali',
      name: 'Ali',
      kind: 'person',
      aliases: ['ali'],
      at: T0,
    });
    await w.store.graph.linkEntityToUser(G, 'ali', 'u1');
    const list = await linksChannel(
      ctx(w, {
        subjectNodes: Promise.resolve([
          { type: 'user', id: 'u1' },
          { type: 'entity', id: 'ali' },
        ]),
      }),
    );
    expect(list.hits.map((h) => h.factId).sort()).toEqual([about.id, twin.id].sort());
  });

  it('baseline: the strongest facts of each subject', async () => {
    const w = world();
    const strong = makeFact({ text: 'core fact', subjectId: 'u1', strength: 9 });
    const weak = makeFact({ text: 'weak fact', subjectId: 'u1', strength: 1 });
    const other = makeFact({ text: 'other fact', subjectId: 'u2', strength: 5 });
    await seed(w.store, w.embedder, [strong, weak, other]);
    const list = await baselineChannel(ctx(w, { subjectIds: ['u1', 'u2'], maxPerSubject: 1 }));
    expect(list.hits.map((h) => h.factId)).toEqual([strong.id, other.id]);
  });

  it('pair: facts linked to both members', async () => {
    const w = world();
    const both = makeFact({ text: 'Alice and Bob share a flat', subjectId: 'u1' });
    const one = makeFact({ text: 'Alice likes jazz', subjectId: 'u1' });
    await seed(w.store, w.embedder, [both], { links: [['user', 'u2', 'about_user']] });
    await seed(w.store, w.embedder, [one]);
    const list = await pairChannel(ctx(w, { pairs: [['u1', 'u2']] }), 100);
    expect(list.hits.map((h) => h.factId)).toEqual([both.id]);
  });
});

describe('entity channels', () => {
  it('matches the longest entity alias and unambiguous member names in the query', async () => {
    const w = world();
    await w.store.graph.upsertEntity({
      guildId: G,
      slug: 'nyc-marathon',
      name: 'NYC Marathon',
      kind: 'event',
      aliases: ['new york city marathon'],
      at: T0,
    });
    await w.store.graph.upsertEntity({
      guildId: G,
      slug: 'york',
      name: 'York',
      kind: 'place',
      aliases: ['york'],
      at: T0,
    });
    await w.store.aliases.upsert({
      guildId: G,
      alias: 'carol',
      userId: 'u3',
      source: 'display_name',
      weight: 0.7,
      updatedAt: T0,
    });
    const marathon = makeFact({ text: 'Dan ran it', subjectId: 'u4' });
    const york = makeFact({ text: 'Eve lives there', subjectId: 'u5' });
    const carol = makeFact({ text: 'Carol paints', subjectId: 'u3' });
    await seed(w.store, w.embedder, [marathon], { links: [['entity', 'nyc-marathon', 'about_entity']] });
    await seed(w.store, w.embedder, [york], { links: [['entity', 'york', 'about_entity']] });
    await seed(w.store, w.embedder, [carol]);
    const r = await entityChannel(ctx(w, { text: "Did Carol's friends run the New York City Marathon?" }));
    expect([...r.targets.entitySlugs]).toEqual(['nyc-marathon']);
    expect([...r.targets.userIds]).toEqual(['u3']);
    expect(r.list.hits.map((h) => h.factId).sort()).toEqual([marathon.id, carol.id].sort());
  });

  it('ignores ambiguous member names', async () => {
    const w = world();
    for (const u of ['u1', 'u2'])
      await w.store.aliases.upsert({
        guildId: G,
        alias: 'sam',
        userId: u,
        source: 'display_name',
        weight: 0.7,
        updatedAt: T0,
      });
    const r = await entityChannel(ctx(w, { text: 'what does sam like' }));
    expect(r.targets.userIds.size).toBe(0);
  });

  it('entity hint: facts of the entity and of the member it is the twin of', async () => {
    const w = world();
    const e = await w.store.graph.upsertEntity({
      guildId: G,
      slug: 'ali',
      name: 'Ali',
      kind: 'person',
      aliases: ['ali'],
      at: T0,
    });
    await w.store.graph.linkEntityToUser(G, 'ali', 'u1');
    const f = makeFact({ text: 'Alice sings', subjectId: 'u1' });
    await seed(w.store, w.embedder, [f]);
    const r = await entityHintChannel(ctx(w), { ...e, linkedUserId: 'u1' });
    expect(r.list.hits.map((h) => h.factId)).toEqual([f.id]);
    expect(r.list.channel).toBe(ChannelName.ENTITY_HINT);
  });
});

describe('graph hop channel', () => {
  it('follows edges in both directions from the seeds, up to the depth', async () => {
    const w = world();
    const golfBob = makeFact({ text: 'Bob plays golf', subjectId: 'u2' });
    const carolBob = makeFact({ text: 'Carol mentors Bob', subjectId: 'u3' });
    const far = makeFact({ text: 'Dan knows Carol', subjectId: 'u4' });
    await seed(w.store, w.embedder, [golfBob, carolBob, far]);
    const at = T0;
    await w.store.graph.upsertRelation({
      guildId: G,
      src: { type: 'user', id: 'u2' },
      dst: { type: 'entity', id: 'golf' },
      verb: 'plays',
      polarity: 'neutral',
      confidence: 0.9,
      evidenceFactId: golfBob.id,
      at,
    });
    // Inbound edge to u2: only a walker that follows dst→src finds Carol.
    await w.store.graph.upsertRelation({
      guildId: G,
      src: { type: 'user', id: 'u3' },
      dst: { type: 'user', id: 'u2' },
      verb: 'mentors',
      polarity: 'positive',
      confidence: 0.9,
      evidenceFactId: carolBob.id,
      at,
    });
    await w.store.graph.upsertRelation({
      guildId: G,
      src: { type: 'user', id: 'u4' },
      dst: { type: 'user', id: 'u3' },
      verb: 'knows',
      polarity: 'neutral',
      confidence: 0.9,
      evidenceFactId: far.id,
      at,
    });
    const seeds = [{ type: 'user' as const, id: 'u2' }];
    const one = await graphHopChannel(ctx(w), seeds, 1, 24);
    expect(one.hits.map((h) => h.factId)).toContain(carolBob.id);
    expect(one.hits.map((h) => h.factId)).not.toContain(far.id);
    const two = await graphHopChannel(ctx(w), seeds, 2, 24);
    const hit = two.hits.find((h) => h.factId === far.id);
    expect(hit?.hopPath).toEqual(['user:u2', 'user:u3', 'user:u4']);
    // From an entity seed the walk reaches the member on the other end.
    const fromEntity = await graphHopChannel(ctx(w), [{ type: 'entity', id: 'golf' }], 1, 24);
    expect(fromEntity.hits.map((h) => h.factId)).toContain(golfBob.id);
  });

  it('respects the fan-out', async () => {
    const w = world();
    const facts = Array.from({ length: 5 }, (_, i) => makeFact({ text: `friend ${i}`, subjectId: `f${i}` }));
    await seed(w.store, w.embedder, facts);
    for (const [i, f] of facts.entries())
      await w.store.graph.upsertRelation({
        guildId: G,
        src: { type: 'user', id: 'u1' },
        dst: { type: 'user', id: `f${i}` },
        verb: 'friends_with',
        polarity: 'positive',
        confidence: 0.5 + i / 10,
        evidenceFactId: f.id,
        at: T0,
      });
    const list = await graphHopChannel(ctx(w), [{ type: 'user', id: 'u1' }], 1, 2);
    expect(new Set(list.hits.map((h) => h.hopPath?.[1])).size).toBe(2);
  });
});
