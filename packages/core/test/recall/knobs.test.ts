import { describe, expect, it } from 'vitest';
import { createPromptContextService } from '../../src/context/prompt-context-service.js';
import { createIdentityService } from '../../src/identity/identity-service.js';
import { ChannelName } from '../../src/model/enums.js';
import type { Reranker } from '../../src/ports/reranker.js';
import { createMessageSearch } from '../../src/recall/message-search.js';
import { createRecallService } from '../../src/recall/recall-service.js';
import { createFakeEmbedder } from '../../src/testing/fake-embedder.js';
import { conversation, storeMessages } from '../helpers/messages.js';
import { config, DAY, G, makeFact, seed, T0, world } from '../helpers/world.js';

/** Every `retrieval` knob changes something observable ("configured means wired"). */
describe('retrieval knobs', () => {
  const many = (n: number, subjectId: string | null = 'u1') =>
    Array.from({ length: n }, (_, i) => makeFact({ text: `Alice bakes bread variant ${i}`, subjectId }));

  it('topK, maxPerSubject and minScore defaults come from the config', async () => {
    const w = world();
    await seed(w.store, w.embedder, [...many(3), ...many(3, 'u2')]);
    const q = { guildId: G, text: 'bakes bread', subjectIds: ['u1', 'u2'] };
    expect((await createRecallService(w.deps({ topK: 1 })).recall(q)).facts).toHaveLength(1);
    expect((await createRecallService(w.deps({ maxPerSubject: 1 })).recall(q)).facts).toHaveLength(2);
    expect((await createRecallService(w.deps({ minScore: 0.99 })).recall(q)).facts).toHaveLength(0);
  });

  it('channelLimit bounds each channel and poolSize bounds the fused pool', async () => {
    const w = world();
    await seed(w.store, w.embedder, many(30));
    const q = { guildId: G, text: 'bakes bread', scope: 'guild' as const, topK: 50, maxPerSubject: 50 };
    const kw = { ...q, channels: [ChannelName.KEYWORD] };
    // depthPerResult 0: the configured depth whatever topK asks for.
    const fixed = { depthPerResult: 0 };
    expect((await createRecallService(w.deps({ ...fixed, channelLimit: 5 })).recall(kw)).facts).toHaveLength(
      5,
    );
    expect((await createRecallService(w.deps({ ...fixed, poolSize: 10 })).recall(q)).facts).toHaveLength(10);
    expect((await createRecallService(w.deps()).recall(q)).facts).toHaveLength(30);
  });

  it('depthPerResult deepens the channels and the pool for a long result list', async () => {
    const w = world();
    await seed(w.store, w.embedder, many(30));
    const q = { guildId: G, text: 'bakes bread', scope: 'guild' as const, maxPerSubject: 50 };
    const kw = { ...q, channels: [ChannelName.KEYWORD] };
    const shallow = w.deps({ channelLimit: 5, poolSize: 10, depthPerResult: 2 });
    // topK 2: 2 × 2 = 4 ≤ channelLimit, the configured depth holds.
    expect((await createRecallService(shallow).recall({ ...kw, topK: 2 })).facts).toHaveLength(2);
    // topK 20: each channel returns 2 × 20 = 40 candidates, the pool grows to 10 × 40 / 5 = 80.
    expect((await createRecallService(shallow).recall({ ...kw, topK: 20 })).facts).toHaveLength(20);
    expect((await createRecallService(shallow).recall({ ...q, topK: 20 })).facts).toHaveLength(20);
    // Without it the same query stops at channelLimit and poolSize.
    const fixed = w.deps({ channelLimit: 5, poolSize: 10, depthPerResult: 0 });
    expect((await createRecallService(fixed).recall({ ...kw, topK: 20 })).facts).toHaveLength(5);
    // (vector and keyword, 5 candidates each)
    const wide = (await createRecallService(fixed).recall({ ...q, topK: 20 })).facts;
    expect(wide.length).toBeGreaterThan(0);
    expect(wide.length).toBeLessThanOrEqual(10);
  });

  it('lexicalFloor measures keyword scores against a full match of the query', async () => {
    const w = world();
    await seed(w.store, w.embedder, [
      makeFact({ text: 'Alice bakes sourdough bread' }),
      makeFact({ text: 'Alice plays the violin' }),
      makeFact({ text: 'Alice walks her dog' }),
    ]);
    // "zeppelin" is in no fact: the best hit matches only part of the query.
    const q = {
      guildId: G,
      text: 'bread zeppelin',
      scope: 'guild' as const,
      channels: [ChannelName.KEYWORD],
    };
    const lexical = async (lexicalFloor: number) =>
      (await createRecallService(w.deps({ lexicalFloor })).recall(q)).facts[0]?.components.lexical;
    expect(await lexical(0)).toBe(1);
    const floored = await lexical(1);
    expect(floored).toBeGreaterThan(0);
    expect(floored).toBeLessThan(0.6);
  });

  it('rrfK shapes the reciprocal-rank component', async () => {
    const w = world();
    await seed(w.store, w.embedder, many(3));
    const q = {
      guildId: G,
      text: 'bakes bread variant',
      scope: 'guild' as const,
      channels: [ChannelName.KEYWORD],
    };
    const low = await createRecallService(w.deps({ rrfK: 1 })).recall(q);
    const high = await createRecallService(w.deps({ rrfK: 1000 })).recall(q);
    expect(low.facts[1]?.components.rrf).toBeCloseTo(2 / 3, 5);
    expect(high.facts[1]?.components.rrf).toBeCloseTo(1001 / 1002, 5);
  });

  it('each fusion weight moves the ranking', async () => {
    const w = world({ synonyms: [['feline', 'cat']] });
    const lexical = makeFact({ text: 'Alice feeds a stray feline', strength: 1 });
    const semantic = makeFact({ text: 'Alice adores her cat', strength: 1 });
    const strong = makeFact({
      text: 'Alice drinks coffee',
      strength: 10,
      lastReinforcedAt: new Date(T0.getTime() + DAY),
    });
    await seed(w.store, w.embedder, [lexical, semantic, strong]);
    const zero = { semantic: 0, lexical: 0, entity: 0, strength: 0, rrf: 0, temporal: 0 };
    const top = async (weights: Record<string, number>, text = 'feline') =>
      (
        await createRecallService(w.deps({ weights: { ...zero, ...weights } })).recall({
          guildId: G,
          text,
          subjectIds: ['u1'],
        })
      ).facts[0]?.fact.id;
    expect(await top({ lexical: 1 })).toBe(lexical.id);
    expect(await top({ semantic: 1, lexical: 0.01 }, 'cat')).toBe(semantic.id);
    expect(await top({ strength: 1 })).toBe(strong.id);
    const rrfOnly = await createRecallService(w.deps({ weights: { ...zero, rrf: 1 } })).recall({
      guildId: G,
      text: 'feline',
      subjectIds: ['u1'],
    });
    expect(rrfOnly.facts[0]?.score).toBe(1);
  });

  it('entity and temporal weights count when the query names a member or a date', async () => {
    const w = world();
    await w.store.aliases.upsert({
      guildId: G,
      alias: 'carol',
      userId: 'u3',
      source: 'display_name',
      weight: 0.7,
      updatedAt: T0,
    });
    const carol = makeFact({
      text: 'enjoys hiking trails',
      subjectId: 'u3',
      observedAt: new Date('2026-03-10T00:00:00Z'),
    });
    const dave = makeFact({
      text: 'likes hiking',
      subjectId: 'u4',
      observedAt: new Date('2026-07-10T00:00:00Z'),
    });
    await seed(w.store, w.embedder, [carol, dave]);
    const base = { semantic: 0, lexical: 0.5, strength: 0, rrf: 0 };
    const rank = async (weights: Record<string, number>, text: string) =>
      (
        await createRecallService(w.deps({ weights: { ...base, ...weights } })).recall({
          guildId: G,
          text,
          scope: 'guild',
        })
      ).facts.map((f) => f.fact.id);
    expect((await rank({ entity: 0, temporal: 0 }, 'does carol like hiking'))[0]).toBe(dave.id);
    expect((await rank({ entity: 1, temporal: 0 }, 'does carol like hiking'))[0]).toBe(carol.id);
    expect((await rank({ entity: 0, temporal: 0 }, 'hiking in March'))[0]).toBe(dave.id);
    expect((await rank({ entity: 0, temporal: 1 }, 'hiking in March'))[0]).toBe(carol.id);
  });

  it('hopDepth and fanOut bound the graph walk', async () => {
    const w = world();
    const near = makeFact({ text: 'Bob plays golf', subjectId: 'u2' });
    const far = makeFact({ text: 'Carol coaches Bob', subjectId: 'u3' });
    const other = makeFact({ text: 'Dan plays golf too', subjectId: 'u4' });
    await seed(w.store, w.embedder, [near, far, other]);
    await w.store.graph.upsertEntity({
      guildId: G,
      slug: 'golf',
      name: 'Golf',
      kind: 'activity',
      aliases: ['golf'],
      at: T0,
    });
    const up = (
      src: string,
      dst: { type: 'user' | 'entity'; id: string },
      evidence: string,
      confidence: number,
    ) =>
      w.store.graph.upsertRelation({
        guildId: G,
        src: { type: 'user', id: src },
        dst,
        verb: 'knows',
        polarity: 'neutral',
        confidence,
        evidenceFactId: evidence,
        at: T0,
      });
    await up('u2', { type: 'entity', id: 'golf' }, near.id, 0.9);
    await up('u4', { type: 'entity', id: 'golf' }, other.id, 0.5);
    await up('u3', { type: 'user', id: 'u2' }, far.id, 0.9);
    const q = {
      guildId: G,
      scope: 'guild' as const,
      entityHint: 'golf',
      channels: [ChannelName.GRAPH_HOP],
      topK: 20,
      maxPerSubject: 20,
    };
    const ids = async (r: Record<string, unknown>) =>
      (await createRecallService(w.deps(r)).recall(q)).facts.map((f) => f.fact.id).sort();
    expect(await ids({ hopDepth: 1 })).toEqual([near.id, other.id].sort());
    expect(await ids({ hopDepth: 2 })).toEqual([near.id, far.id, other.id].sort());
    expect(await ids({ hopDepth: 1, fanOut: 1 })).toEqual([near.id]);
  });

  it('rerankPoolSize limits what the reranker sees; rerankTimeoutMs bounds its wait', async () => {
    const w = world();
    await seed(w.store, w.embedder, many(4));
    let seen = 0;
    const reranker: Reranker = {
      id: 'r',
      score: async (_q, docs) => {
        seen = docs.length;
        return docs.map((_, i) => i);
      },
    };
    const r = await createRecallService(w.deps({ rerankPoolSize: 2 }, { reranker })).recall({
      guildId: G,
      text: 'bread',
      subjectIds: ['u1'],
    });
    expect(seen).toBe(2);
    expect(r.facts.filter((f) => f.rerankScore !== null)).toHaveLength(2);
  });

  it('decayStabilityDays sets how fast the strength prior fades', async () => {
    const w = world();
    const f = makeFact({ text: 'Alice bakes bread', lastReinforcedAt: new Date(T0.getTime() - 30 * DAY) });
    await seed(w.store, w.embedder, [f]);
    const d = w.deps();
    const strength = async (days: number) =>
      (
        await createRecallService({ ...d, lifecycle: { ...d.lifecycle, decayStabilityDays: days } }).recall({
          guildId: G,
          text: 'bread',
          subjectIds: ['u1'],
        })
      ).facts[0]?.components.strength ?? 0;
    expect(await strength(365)).toBeGreaterThan(await strength(7));
  });

  it('factContextWeight mixes in the best fact of the same conversation', async () => {
    const w = world();
    const src = (m: string, minute: number) => [
      {
        messageId: m,
        channelId: 'c1',
        authorId: 'u1',
        authorName: '',
        snippet: '',
        url: '',
        role: 'primary' as const,
        createdAt: new Date(T0.getTime() + minute * 60_000),
      },
    ];
    const match = makeFact({ text: 'Alice trains for the marathon', sources: src('m1', 0) });
    const sameTalk = makeFact({ text: 'Alice bought new shoes', sources: src('m2', 5) });
    const otherDay = makeFact({ text: 'Alice bought a lamp', sources: src('m3', 3000) });
    await seed(w.store, w.embedder, [match, sameTalk, otherDay]);
    const ctx = async (r: Record<string, unknown>) => {
      const res = await createRecallService(w.deps(r)).recall({
        guildId: G,
        text: 'marathon bought',
        subjectIds: ['u1'],
      });
      return new Map(res.facts.map((f) => [f.fact.id, f.components.context]));
    };
    const on = await ctx({});
    expect(on.get(sameTalk.id)).toBeGreaterThan(0);
    expect(on.get(otherDay.id)).toBe(0);
    expect((await ctx({ factContextWeight: 0 })).get(sameTalk.id)).toBe(0);
    expect((await ctx({ neighborMaxGapMinutes: 1 })).get(sameTalk.id)).toBe(0);
  });

  it('neighborWindow and neighborMaxGapMinutes bound message smoothing', async () => {
    const w = world();
    const msgs = conversation(
      [
        ['u1', 'the concert tickets arrived'],
        ['u2', 'nice'],
        ['u3', 'I will bring snacks'],
      ],
      T0,
    );
    await storeMessages(w.store, w.embedder, msgs);
    const hits = async (r: Record<string, unknown>) => {
      const d = w.deps(r);
      const res = await createMessageSearch(d).search({ guildId: G, text: 'concert tickets' });
      return res.messages.map((m) => m.message.messageId);
    };
    expect(await hits({})).toContain(msgs[2]?.messageId);
    expect(await hits({ neighborWindow: 1 })).not.toContain(msgs[2]?.messageId);
    expect(await hits({ neighborMaxGapMinutes: 1 })).toContain(msgs[1]?.messageId);
    expect(await hits({ neighborWeight: 0 })).toEqual([msgs[0]?.messageId]);
  });

  it('semanticScale sets the scale of the semantic component (auto follows the embedder)', async () => {
    const w = world();
    const facts = [
      makeFact({ text: 'Alice bakes sourdough bread' }),
      makeFact({ text: 'Alice bakes cakes for friends' }),
    ];
    const msgs = conversation(
      [
        ['u1', 'I bake sourdough bread on sundays'],
        ['u2', 'the oven is broken again'],
      ],
      T0,
    );
    await seed(w.store, w.embedder, facts);
    await storeMessages(w.store, w.embedder, msgs);
    const model = createFakeEmbedder({ dimensions: 128, lexical: false });
    const semantics = async (r: Record<string, unknown>, embedder = w.embedder) => {
      const d = { ...w.deps(r), embedder };
      const recalled = await createRecallService(d).recall({ guildId: G, text: 'sourdough bread oven' });
      const found = await createMessageSearch(d).search({ guildId: G, text: 'sourdough bread oven' });
      const best = (xs: number[]) => Math.max(...xs);
      return [
        best(recalled.facts.map((f) => f.components.semantic)),
        best(found.messages.map((m) => m.components.semantic)),
      ];
    };
    // The best hit of each list is 1 when relative; its raw cosine is below 1.
    const relative = await semantics({ semanticScale: 'relative' });
    expect(relative).toEqual([1, 1]);
    const cosine = await semantics({ semanticScale: 'cosine' });
    expect(cosine.every((s) => s > 0 && s < 1)).toBe(true);
    expect(await semantics({})).toEqual(cosine);
    expect(await semantics({}, model)).toEqual(relative);
    expect(await semantics({ semanticScale: 'cosine' }, model)).toEqual(cosine);
  });

  it('serverTopK, defaultTokenBudget and citationMinScore shape the prompt context', async () => {
    const w = world();
    await seed(w.store, w.embedder, [
      ...Array.from({ length: 5 }, (_, i) =>
        makeFact({
          text: `Alice grows tomatoes in greenhouse ${i}`,
          sources: [
            {
              messageId: `m${i}`,
              channelId: 'c',
              authorId: 'u1',
              authorName: '',
              snippet: '',
              url: '',
              role: 'primary',
              createdAt: T0,
            },
          ],
        }),
      ),
      makeFact({ text: 'The server has a gardening channel', subjectId: null }),
      makeFact({ text: 'The server gardening contest is in May', subjectId: null }),
    ]);
    const service = (r: Record<string, unknown>) => {
      const d = w.deps(r);
      return createPromptContextService({
        recall: createRecallService(d),
        identity: createIdentityService({ store: w.store, clock: w.clock, isBot: () => false }),
        store: w.store,
        embedder: w.embedder,
        clock: w.clock,
        retrieval: d.retrieval,
        access: d.access,
      });
    };
    const q = { guildId: G, askerId: 'u1', text: 'gardening tomatoes greenhouse' };
    expect((await service({ serverTopK: 0 }).promptContext(q)).injectionBlock).not.toContain(
      'SERVER COMMUNITY FACTS',
    );
    const one = await service({ serverTopK: 1 }).promptContext(q);
    expect(one.facts.filter((f) => f.fact.subjectId === null)).toHaveLength(1);
    const full = await service({}).promptContext(q);
    const small = await service({ defaultTokenBudget: 90 }).promptContext(q);
    expect(small.facts.length).toBeLessThan(full.facts.length);
    expect(small.injectionBlock.length).toBeLessThanOrEqual(90 * 4);
    const reply = 'You grow tomatoes in a greenhouse.';
    expect(
      (await (await service({ citationMinScore: 0.3 }).promptContext(q)).cite(reply)).claims,
    ).toHaveLength(1);
    expect((await (await service({ citationMinScore: 1 }).promptContext(q)).cite(reply)).claims).toHaveLength(
      0,
    );
  });

  it('has documented defaults', () => {
    const r = config().retrieval;
    expect(r).toMatchObject({
      topK: 8,
      maxPerSubject: 4,
      serverTopK: 3,
      rrfK: 60,
      hopDepth: 2,
      fanOut: 24,
      rerankPoolSize: 32,
    });
    expect(r.weights).toEqual({
      semantic: 0.3,
      lexical: 0.45,
      entity: 0.1,
      strength: 0.05,
      rrf: 0.05,
      temporal: 0.15,
    });
    expect(r).toMatchObject({
      neighborWeight: 0.5,
      neighborWindow: 2,
      neighborMaxGapMinutes: 60,
      factContextWeight: 0.5,
      semanticScale: 'auto',
    });
  });
});
