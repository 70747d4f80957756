import { describe, expect, it } from 'vitest';
import { createPromptContextService } from '../../src/context/prompt-context-service.js';
import { createIdentityService } from '../../src/identity/identity-service.js';
import type { MemoryStore } from '../../src/ports/memory-store.js';
import { createRecallService } from '../../src/recall/recall-service.js';
import { RecallSession } from '../../src/recall/recall-session.js';
import { interceptStore } from '../../src/testing/intercept-store.js';
import { G, makeFact, seed, world } from '../helpers/world.js';

/** The store with every port method call counted as `role.method`. */
function counted(store: MemoryStore): { store: MemoryStore; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const proxy = interceptStore(store, (role, method, call) => {
    const k = `${role}.${method}`;
    calls.set(k, (calls.get(k) ?? 0) + 1);
    return call();
  });
  return { store: proxy, calls };
}

describe('recall session', () => {
  it('reads each member twin, fact and opt-out list once', async () => {
    const w = world();
    const facts = [
      makeFact({ text: 'likes tea', subjectId: 'u1' }),
      makeFact({ text: 'likes chess', subjectId: 'u2' }),
    ];
    await seed(w.store, w.embedder, facts);
    await w.store.consent.setOptOut(G, 'u9', true, new Date());
    const { store, calls } = counted(w.store);
    const session = new RecallSession(store, w.embedder);
    expect([...(await session.optedOut(G))]).toEqual(['u9']);
    await session.optedOut(G);
    const both = await session.nodesOfUsers(G, ['u1', 'u2']);
    const one = await session.nodesOfUsers(G, ['u2']);
    expect(both.nodes.map((n) => n.id)).toEqual(['u1', 'u2']);
    expect(one.nodes.map((n) => n.id)).toEqual(['u2']);
    const ids = facts.map((f) => f.id);
    expect((await session.facts(G, [...ids, 'missing'])).map((f) => f.id)).toEqual(ids);
    expect((await session.facts(G, [ids[1] as string])).map((f) => f.text)).toEqual(['likes chess']);
    const [a, b] = await Promise.all([session.embed('tea'), session.embed('tea')]);
    expect(a).toBe(b);
    expect(Object.fromEntries(calls)).toEqual({
      'consent.optedOutUsers': 1,
      'graph.entitiesLinkedTo': 1,
      'facts.get': 1,
    });
  });

  it('answers a shorter link read from a longer or complete one, in node order', async () => {
    const w = world();
    const mine = Array.from({ length: 6 }, (_, i) => makeFact({ text: `u1 fact ${i}`, subjectId: 'u1' }));
    const theirs = Array.from({ length: 2 }, (_, i) => makeFact({ text: `u2 fact ${i}`, subjectId: 'u2' }));
    const third = makeFact({ text: 'u3 fact', subjectId: 'u3' });
    await seed(w.store, w.embedder, [...mine, ...theirs, third]);
    const { store, calls } = counted(w.store);
    const session = new RecallSession(store, w.embedder);
    const u1 = { type: 'user' as const, id: 'u1' };
    const u2 = { type: 'user' as const, id: 'u2' };
    const fresh = async (limit: number) =>
      (await w.store.graph.linksForNodes(G, [u2, u1], { limitPerNode: limit })).map((l) => l.factId);
    const read = async (limit: number, readAhead?: number) =>
      (await session.linksForNodes(G, [u2, u1], { limitPerNode: limit }, readAhead)).map((l) => l.factId);
    expect(await read(3, 5)).toEqual(await fresh(3));
    expect(await read(5)).toEqual(await fresh(5));
    expect(calls.get('graph.linksForNodes')).toBe(1);
    // u2 was read in full (2 < 5 links); u1 needs a longer read.
    expect(await read(6)).toEqual(await fresh(6));
    expect(calls.get('graph.linksForNodes')).toBe(2);
    // A node read now comes back in its place among nodes read before.
    const u3 = { type: 'user' as const, id: 'u3' };
    const mixed = await session.linksForNodes(G, [u2, u3, u1], { limitPerNode: 6 });
    expect(mixed.map((l) => l.factId)).toContain(third.id);
    expect(mixed.map((l) => l.factId)).toEqual(
      (await w.store.graph.linksForNodes(G, [u2, u3, u1], { limitPerNode: 6 })).map((l) => l.factId),
    );
    expect(calls.get('graph.linksForNodes')).toBe(3);
  });

  it('makes promptContext resolve names once for both of its recalls', async () => {
    const w = world();
    const deps = w.deps();
    const identity = createIdentityService({ store: w.store, clock: w.clock, isBot: deps.isBot });
    await identity.registerAlias({ guildId: G, userId: 'u2', alias: 'bob', source: 'discord_username' });
    await seed(w.store, w.embedder, [
      makeFact({ text: 'Bob keeps bees', subjectId: 'u2' }),
      makeFact({ text: 'The server has a bee channel', subjectId: null }),
    ]);
    const { store, calls } = counted(w.store);
    const recallDeps = { ...deps, store };
    const service = createPromptContextService({
      recall: createRecallService(recallDeps),
      identity,
      store,
      embedder: deps.embedder,
      clock: deps.clock,
      retrieval: deps.retrieval,
      access: deps.access,
      isBot: deps.isBot,
    });
    const ctx = await service.promptContext({
      guildId: G,
      askerId: 'u1',
      text: 'does bob still keep bees?',
      mentionedIds: ['u2'],
    });
    expect(ctx.facts.map((f) => f.fact.text).sort()).toEqual([
      'Bob keeps bees',
      'The server has a bee channel',
    ]);
    expect(calls.get('aliases.findMany')).toBe(1);
    expect(calls.get('aliases.find')).toBeUndefined();
    expect(calls.get('consent.optedOutUsers')).toBe(1);
  });
});
