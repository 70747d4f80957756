import { describe, expect, it } from 'vitest';
import { ChannelName, RecallWarning } from '../../src/model/enums.js';
import type { Reranker } from '../../src/ports/reranker.js';
import { createRecallService } from '../../src/recall/recall-service.js';
import { DAY, failing, G, G2, makeFact, seed, T0, withPort, world } from '../helpers/world.js';

const ids = (r: { facts: readonly { fact: { id: string } }[] }) => r.facts.map((f) => f.fact.id);

describe('recall', () => {
  it('finds a fact by keywords and explains the score', async () => {
    const w = world();
    const hit = makeFact({ text: 'Alice adopted a greyhound named Pixel' });
    await seed(w.store, w.embedder, [hit, makeFact({ text: 'Alice works as a nurse' })]);
    const r = await createRecallService(w.deps()).recall({
      guildId: G,
      text: 'what is the name of the greyhound?',
      subjectIds: ['u1'],
    });
    expect(r.facts[0]?.fact.id).toBe(hit.id);
    expect(r.facts[0]?.components.lexical).toBe(1);
    expect(r.facts[0]?.matchedChannels).toEqual(
      expect.arrayContaining([ChannelName.KEYWORD, ChannelName.VECTOR]),
    );
    expect(r.degradedChannels).toEqual([]);
  });

  it('finds a synonym through the vector channel alone', async () => {
    const w = world({
      synonyms: [
        ['loves', 'enjoys'],
        ['coding', 'programming'],
      ],
    });
    const fact = makeFact({ text: 'Alice loves coding' });
    await seed(w.store, w.embedder, [fact, makeFact({ text: 'Alice owns a bicycle' })]);
    const r = await createRecallService(w.deps()).recall({
      guildId: G,
      text: 'who enjoys programming?',
      scope: 'guild',
    });
    expect(r.facts[0]?.fact.id).toBe(fact.id);
    expect(r.facts[0]?.components.lexical).toBe(0);
    expect(r.facts[0]?.components.semantic).toBeGreaterThan(0.8);
  });

  it('time-travels with asOf', async () => {
    const w = world();
    const old = makeFact({
      text: 'Alice lives in Berlin',
      validFrom: T0,
      validUntil: new Date(T0.getTime() + 10 * DAY),
      supersededById: 'fct_new',
    });
    const now = makeFact({ text: 'Alice lives in Lisbon', validFrom: new Date(T0.getTime() + 10 * DAY) });
    await seed(w.store, w.embedder, [old, now]);
    const recall = createRecallService(w.deps());
    expect(
      ids(await recall.recall({ guildId: G, text: 'where does Alice live', subjectIds: ['u1'] })),
    ).toEqual([now.id]);
    const past = await recall.recall({
      guildId: G,
      text: 'where does Alice live',
      subjectIds: ['u1'],
      asOf: new Date(T0.getTime() + 5 * DAY),
    });
    expect(ids(past)).toEqual([old.id]);
  });

  it('caps per subject, cuts at topK with budget_trimmed, and applies minScore', async () => {
    const w = world();
    const facts = [
      ...Array.from({ length: 6 }, (_, i) =>
        makeFact({ text: `Alice likes board game ${i}`, subjectId: 'u1' }),
      ),
      ...Array.from({ length: 6 }, (_, i) =>
        makeFact({ text: `Bob likes board game ${i}`, subjectId: 'u2' }),
      ),
    ];
    await seed(w.store, w.embedder, facts);
    const recall = createRecallService(w.deps());
    const r = await recall.recall({
      guildId: G,
      text: 'board game',
      subjectIds: ['u1', 'u2'],
      maxPerSubject: 2,
      topK: 3,
    });
    expect(r.facts).toHaveLength(3);
    const per = new Map<string, number>();
    for (const f of r.facts) per.set(f.fact.subjectId ?? '', (per.get(f.fact.subjectId ?? '') ?? 0) + 1);
    expect(Math.max(...per.values())).toBeLessThanOrEqual(2);
    expect(r.warnings).toContain(RecallWarning.BUDGET_TRIMMED);
    const strict = await recall.recall({
      guildId: G,
      text: 'board game',
      subjectIds: ['u1', 'u2'],
      minScore: 0.99,
    });
    expect(strict.facts).toEqual([]);
  });

  it('restricts channels and honours excludeIds', async () => {
    const w = world({ synonyms: [['puppy', 'dog']] });
    const lexical = makeFact({ text: 'Alice has a puppy called Rex' });
    const other = makeFact({ text: 'Alice walks her dog daily' });
    await seed(w.store, w.embedder, [lexical, other]);
    const recall = createRecallService(w.deps());
    const kwOnly = await recall.recall({
      guildId: G,
      text: 'puppy',
      scope: 'guild',
      channels: [ChannelName.KEYWORD],
    });
    expect(ids(kwOnly)).toEqual([lexical.id]);
    expect(kwOnly.facts[0]?.matchedChannels).toEqual([ChannelName.KEYWORD]);
    const excluded = await recall.recall({
      guildId: G,
      text: 'puppy',
      scope: 'guild',
      excludeIds: [lexical.id],
    });
    expect(ids(excluded)).toEqual([other.id]);
  });

  it('never mixes server facts into subject recall unless asked, and server scope reads only them', async () => {
    const w = world();
    const mine = makeFact({ text: 'Alice moderates the movie night', subjectId: 'u1' });
    const server = makeFact({ text: 'Movie night is every Friday', subjectId: null });
    await seed(w.store, w.embedder, [mine, server]);
    const recall = createRecallService(w.deps());
    expect(ids(await recall.recall({ guildId: G, text: 'movie night', subjectIds: ['u1'] }))).toEqual([
      mine.id,
    ]);
    expect(
      ids(
        await recall.recall({ guildId: G, text: 'movie night', subjectIds: ['u1'], includeServer: true }),
      ).sort(),
    ).toEqual([mine.id, server.id].sort());
    expect(ids(await recall.recall({ guildId: G, text: 'movie night', scope: 'server' }))).toEqual([
      server.id,
    ]);
  });

  it('drops bots and members who opted out (read from the store every time)', async () => {
    const w = world();
    const human = makeFact({ text: 'Alice likes chess', subjectId: 'u1' });
    const bot = makeFact({ text: 'Botty likes chess', subjectId: 'bot1' });
    const hearsay = makeFact({
      text: 'Dan likes chess',
      subjectId: 'u4',
      attribution: { type: 'third_party', speakerId: 'u5', speakerName: 'Eve', actorId: null },
    });
    await seed(w.store, w.embedder, [human, bot, hearsay]);
    w.bots.add('bot1');
    const recall = createRecallService(w.deps());
    expect(ids(await recall.recall({ guildId: G, text: 'chess', scope: 'guild' })).sort()).toEqual(
      [human.id, hearsay.id].sort(),
    );
    // Another process opts Alice and Eve out: the next recall sees it.
    await w.store.consent.setOptOut(G, 'u1', true, T0);
    await w.store.consent.setOptOut(G, 'u5', true, T0);
    expect(ids(await recall.recall({ guildId: G, text: 'chess', scope: 'guild' }))).toEqual([]);
  });

  it('answers with a degraded channel when one fails', async () => {
    const w = world();
    const fact = makeFact({ text: 'Alice collects vinyl records' });
    await seed(w.store, w.embedder, [fact]);
    const store = withPort(w.store, 'vectors', failing(w.store.vectors, 'search'));
    const r = await createRecallService({ ...w.deps(), store }).recall({
      guildId: G,
      text: 'vinyl',
      subjectIds: ['u1'],
    });
    expect(ids(r)).toEqual([fact.id]);
    expect(r.degradedChannels).toEqual([ChannelName.VECTOR]);
    expect(r.warnings).toContain(RecallWarning.DEGRADED_CHANNEL);
  });

  it('survives a failing embedder and a failing store without throwing', async () => {
    const w = world();
    await seed(w.store, w.embedder, [makeFact({ text: 'Alice collects vinyl records' })]);
    const broken = { ...w.embedder, embed: async () => Promise.reject(new Error('model down')) };
    const r = await createRecallService({ ...w.deps(), embedder: broken }).recall({
      guildId: G,
      text: 'vinyl',
      subjectIds: ['u1'],
    });
    expect(r.facts).toHaveLength(1);
    expect(r.degradedChannels).toEqual([ChannelName.VECTOR]);
    const store = withPort(w.store, 'consent', failing(w.store.consent, 'optedOutUsers'));
    const down = await createRecallService({ ...w.deps(), store }).recall({ guildId: G, text: 'vinyl' });
    expect(down).toEqual({ facts: [], warnings: [RecallWarning.STORE_UNAVAILABLE], degradedChannels: [] });
  });

  it('returns a warning instead of throwing on bad input', async () => {
    const w = world();
    const recall = createRecallService(w.deps());
    for (const bad of [
      {},
      { guildId: '' },
      { guildId: G, topK: 0 },
      { guildId: G, channels: ['nope'] },
      null,
      { guildId: G, extra: 1 },
    ])
      expect(await recall.recall(bad as never)).toEqual({
        facts: [],
        warnings: [RecallWarning.QUERY_INVALID],
        degradedChannels: [],
      });
  });

  it('reranks the pool; a slow or failing reranker only warns', async () => {
    const w = world();
    const a = makeFact({ text: 'Alice likes green tea' });
    const b = makeFact({ text: 'Alice likes tea with milk and honey' });
    await seed(w.store, w.embedder, [a, b]);
    const prefersB: Reranker = {
      id: 'r',
      score: async (_q, docs) => docs.map((d) => (d.includes('honey') ? 1 : 0)),
    };
    const ranked = await createRecallService(w.deps({}, { reranker: prefersB })).recall({
      guildId: G,
      text: 'tea',
      subjectIds: ['u1'],
    });
    expect(ranked.facts[0]?.fact.id).toBe(b.id);
    expect(ranked.facts[0]?.rerankScore).toBe(1);
    const slow: Reranker = {
      id: 'slow',
      score: () => new Promise((resolve) => setTimeout(() => resolve([1, 1]), 500)),
    };
    const timedOut = await createRecallService(w.deps({ rerankTimeoutMs: 10 }, { reranker: slow })).recall({
      guildId: G,
      text: 'tea',
      subjectIds: ['u1'],
    });
    expect(timedOut.facts).toHaveLength(2);
    expect(timedOut.warnings).toContain(RecallWarning.RERANKER_FAILED);
    expect(timedOut.facts.every((f) => f.rerankScore === null)).toBe(true);
  });

  it('reinforces recalled facts when configured', async () => {
    const w = world();
    const fact = makeFact({ text: 'Alice speaks Esperanto' });
    await seed(w.store, w.embedder, [fact]);
    await createRecallService(w.deps()).recall({ guildId: G, text: 'Esperanto', subjectIds: ['u1'] });
    expect((await w.store.facts.get(G, [fact.id]))[0]?.lastReinforcedAt).toEqual(T0);
    await createRecallService(w.deps({ reinforceOnRecall: true })).recall({
      guildId: G,
      text: 'Esperanto',
      subjectIds: ['u1'],
    });
    expect((await w.store.facts.get(G, [fact.id]))[0]?.lastReinforcedAt).toEqual(w.clock.now());
  });

  it('never returns another guild’s facts', async () => {
    const w = world();
    const mine = makeFact({ text: 'Alice likes kayaking' });
    const theirs = makeFact({ text: 'Alice likes kayaking a lot', guildId: G2 });
    await seed(w.store, w.embedder, [mine, theirs]);
    await w.store.aliases.upsert({
      guildId: G2,
      alias: 'alice',
      userId: 'u1',
      source: 'display_name',
      weight: 0.7,
      updatedAt: T0,
    });
    const recall = createRecallService(w.deps());
    for (const q of [
      { guildId: G, text: 'kayaking alice', scope: 'guild' as const },
      { guildId: G, text: 'kayaking', subjectIds: ['u1'], pairIds: [['u1', 'u2'] as [string, string]] },
      { guildId: G, subjectIds: ['u1'] },
    ]) {
      const r = await recall.recall(q);
      expect(r.facts.every((f) => f.fact.guildId === G)).toBe(true);
      expect(ids(r)).not.toContain(theirs.id);
    }
  });

  it('ranks the fact holding the query as a phrase first (retrieval.phraseWeight)', async () => {
    const w = world();
    // Same words, so the same keyword and vector scores; ids put the scattered one first on a tie.
    const scattered = makeFact({ id: 'fct_a', text: 'run charity 5K walk' });
    const inOrder = makeFact({ id: 'fct_b', text: 'walk 5K charity run' });
    await seed(w.store, w.embedder, [scattered, inOrder]);
    const recall = async (text: string, retrieval: Record<string, unknown> = {}) =>
      createRecallService(w.deps({ weights: { rrf: 0 }, ...retrieval })).recall({
        guildId: G,
        text,
        subjectIds: ['u1'],
      });
    const withPhrase = await recall('the 5K charity run');
    expect(ids(withPhrase)).toEqual([inOrder.id, scattered.id]);
    const without = await recall('the 5K charity run', { phraseWeight: 0 });
    expect(ids(without)).toEqual([scattered.id, inOrder.id]);
    // Mixed in as (fused + w × phrase) / (1 + w): the whole phrase found, half of none.
    const fused = without.facts[0]?.score ?? 0;
    expect(withPhrase.facts[0]?.score).toBeCloseTo((fused + 0.2) / 1.2, 5);
    expect(withPhrase.facts[1]?.score).toBeCloseTo(fused / 1.2, 5);
    // A query of one term has no phrase: its scores stay the fused ones.
    const single = await recall('charity');
    const singleWithout = await recall('charity', { phraseWeight: 0 });
    expect(single.facts.map((f) => f.score)).toEqual(singleWithout.facts.map((f) => f.score));
  });

  it('uses the dates a query names', async () => {
    const w = world();
    const june = makeFact({
      text: 'Alice went camping with family',
      observedAt: new Date('2026-06-12T00:00:00Z'),
    });
    const april = makeFact({
      text: 'Alice went camping alone',
      observedAt: new Date('2026-04-02T00:00:00Z'),
    });
    await seed(w.store, w.embedder, [june, april]);
    const r = await createRecallService(w.deps()).recall({
      guildId: G,
      text: 'camping in June',
      subjectIds: ['u1'],
    });
    expect(r.facts[0]?.fact.id).toBe(june.id);
    expect(r.facts[0]?.components.temporal).toBe(1);
  });

  it('turns on graph hop and pairs for discovery', async () => {
    const w = world();
    const a = makeFact({ text: 'Alice loves golf', subjectId: 'u1' });
    const b = makeFact({ text: 'Bob hates golf', subjectId: 'u2' });
    await seed(w.store, w.embedder, [a, b]);
    for (const [u, f, verb, polarity] of [
      ['u1', a, 'loves', 'positive'],
      ['u2', b, 'hates', 'negative'],
    ] as const)
      await w.store.graph.upsertRelation({
        guildId: G,
        src: { type: 'user', id: u },
        dst: { type: 'entity', id: 'golf' },
        verb,
        polarity,
        confidence: 0.9,
        evidenceFactId: f.id,
        at: T0,
      });
    const r = await createRecallService(w.deps()).recall({
      guildId: G,
      subjectIds: ['u1', 'u2'],
      pairIds: [['u1', 'u2']],
    });
    const hop = r.facts.find((f) => f.matchedChannels.includes(ChannelName.GRAPH_HOP));
    expect(hop?.hopPath.length).toBeGreaterThan(1);
  });
});
