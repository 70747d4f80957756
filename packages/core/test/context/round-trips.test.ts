import { describe, expect, it } from 'vitest';
import { createPromptContextService } from '../../src/context/prompt-context-service.js';
import { createIdentityService } from '../../src/identity/identity-service.js';
import { createRecallService } from '../../src/recall/recall-service.js';
import { StoreWaves } from '../../src/testing/store-waves.js';
import { G, makeFact, seed, T0, world } from '../helpers/world.js';

/**
 * Store calls on a request's critical path: against a remote store (MongoDB, a database across a
 * network) each wave of calls costs a round trip. Reads that depend only on who is in the
 * conversation start together; only the graph walk and the pool read wait on earlier answers.
 */
async function setup() {
  const w = world();
  const counted = new StoreWaves(w.store);
  const base = w.deps();
  const deps = { ...base, store: counted.store };
  const identity = createIdentityService({ store: counted.store, clock: w.clock, isBot: deps.isBot });
  const service = createPromptContextService({
    recall: createRecallService(deps),
    identity,
    store: counted.store,
    embedder: deps.embedder,
    clock: deps.clock,
    retrieval: deps.retrieval,
    access: deps.access,
    isBot: deps.isBot,
  });
  await identity.registerAlias({ guildId: G, userId: 'u1', alias: 'alice', source: 'discord_username' });
  await identity.registerAlias({ guildId: G, userId: 'u2', alias: 'bob', source: 'discord_username' });
  const rust = makeFact({ text: 'Alice is learning Rust', subjectId: 'u1' });
  const crate = makeFact({ text: 'Bob maintains a Rust crate', subjectId: 'u2' });
  const mentor = makeFact({ text: 'Alice mentors Bob in Rust', subjectId: 'u1' });
  const club = makeFact({ text: 'The server runs a Rust study group', subjectId: null });
  await seed(w.store, w.embedder, [rust, crate, mentor, club]);
  await w.store.graph.upsertRelation({
    guildId: G,
    src: { type: 'user', id: 'u1' },
    dst: { type: 'user', id: 'u2' },
    verb: 'mentors',
    polarity: 'positive',
    confidence: 0.9,
    evidenceFactId: mentor.id,
    at: T0,
  });
  await w.store.graph.upsertRelation({
    guildId: G,
    src: { type: 'user', id: 'u2' },
    dst: { type: 'entity', id: 'rust' },
    verb: 'fan_of',
    polarity: 'positive',
    confidence: 0.9,
    evidenceFactId: crate.id,
    at: T0,
  });
  await w.store.digests.putDigest({
    guildId: G,
    subjectId: 'u2',
    text: 'Bob writes systems code.',
    generatedAt: T0,
    sourceFactCount: 3,
    channels: null,
  });
  return { counted, service, recall: createRecallService(deps), facts: { rust, crate, mentor, club } };
}

describe('store round trips', () => {
  it('promptContext waits on at most six waves of store calls, with a two-hop graph walk', async () => {
    const { counted, service, facts } = await setup();
    const { result: ctx, ...count } = await counted.measure(() =>
      service.promptContext({ guildId: G, askerId: 'u1', text: 'any rust tips?', mentionedIds: ['u2'] }),
    );
    // The block is the full one (facts of both people, the server, their relation, a digest).
    expect(ctx.facts.map((f) => f.fact.id)).toEqual(
      expect.arrayContaining([facts.rust.id, facts.crate.id, facts.club.id]),
    );
    expect(ctx.injectionBlock).toContain('Bob writes systems code.');
    expect(ctx.injectionBlock).toContain('mentors');
    // Opt-outs, the people's names, digests and history, the server recall and every text
    // channel go out in the first two waves, not after the recalls.
    expect(count.byWave[0]).toEqual(
      expect.arrayContaining(['consent.optedOutUsers', 'facts.searchText', 'vectors.search']),
    );
    expect(count.byWave.slice(0, 2).flat()).toEqual(
      expect.arrayContaining(['digests.getDigest', 'aliases.aliasesOf', 'conversation.authorHistory']),
    );
    // Then the walk: relations, the entities reached (identity collapse), the second hop, the
    // links of the nodes reached. Before the reads were started together this took ten waves.
    expect(count.waves).toBeLessThanOrEqual(6);
  });

  it('recall starts its channels with the opt-out read and the subjects’ graph nodes', async () => {
    const { counted, recall, facts } = await setup();
    const { result: out, ...count } = await counted.measure(() =>
      recall.recall({ guildId: G, text: 'rust', subjectIds: ['u1'], includeServer: true }),
    );
    expect(out.facts.map((f) => f.fact.id)).toContain(facts.rust.id);
    expect(count.byWave[0]).toEqual(
      expect.arrayContaining([
        'consent.optedOutUsers',
        'graph.entitiesLinkedTo',
        'facts.searchText',
        'vectors.search',
      ]),
    );
    expect(count.waves).toBeLessThanOrEqual(4);
  });
});
