import type { PurgePlan } from '@permafrost/core/store';
import { G1, makeFact, T0 } from '@permafrost/store-conformance';
import { createMongoStore } from '@permafrost/store-mongo';
import type { CommandStartedEvent } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { BackgroundWrites } from '../src/background-writes.js';
import { epochKey, FactEpochs, guildOfKey, guildsOf } from '../src/fact-epochs.js';
import { FactKeep } from '../src/fact-keep.js';
import { factKey } from '../src/mongo-fact-mapping.js';
import type { FactDoc } from '../src/mongo-memory-docs.js';
import { mongoSelected, scratchDatabase } from './backend-selection.js';

describe('fact epoch keys', () => {
  it('reads the guild of a document key, and of a filter by guild or by keys', () => {
    expect(guildOfKey(factKey('g|1:x', 'f1'))).toBe('g|1:x');
    expect(guildOfKey('4:abc|')).toBeNull();
    expect(guildOfKey('~|x')).toBeNull();
    expect(guildOfKey(7)).toBeNull();
    expect(guildsOf({ guildId: 'a', subjectId: 'u' })).toEqual(['a']);
    expect(guildsOf({ guildId: { $eq: 'a' } })).toEqual(['a']);
    expect(guildsOf({ guildId: { $in: ['a', 'b'] } })).toEqual(['a', 'b']);
    expect(guildsOf({ _id: factKey('a', 'f'), ep: 'x' })).toEqual(['a']);
    expect(guildsOf({ _id: { $in: [factKey('a', 'f'), factKey('b', 'g')] } })).toEqual(['a', 'b']);
    // Anything else moves every guild's epoch.
    expect(guildsOf({ subjectId: 'u' })).toBeNull();
    expect(guildsOf({ guildId: { $ne: 'a' } })).toBeNull();
    expect(guildsOf({ _id: { $in: [factKey('a', 'f'), 'plain'] } })).toBeNull();
    expect(epochKey('a')).not.toBe(epochKey(null));
  });
});

const FACT_FINDS = (e: CommandStartedEvent) => e.commandName === 'find' && e.command['find'] === 'facts';

/** Two store objects on one database stand for two bot processes. */
describe.runIf(mongoSelected)('mongo store kept facts', () => {
  const mongo = scratchDatabase('pf_fact_keep', { monitorCommands: true });

  async function twoStores(name: string, queryPlan: 'auto' | 'mongodb' = 'auto') {
    const { client, db } = mongo;
    const a = createMongoStore({ client, dbName: `${db}_${name}`, queryPlan });
    const b = createMongoStore({ client, dbName: `${db}_${name}`, queryPlan });
    await a.setup();
    await b.setup();
    return { a, b, client };
  }

  async function countFactReads<T>(fn: () => Promise<T>): Promise<{ value: T; reads: number }> {
    const { client } = mongo;
    let reads = 0;
    const started = (e: CommandStartedEvent) => {
      if (FACT_FINDS(e)) reads++;
    };
    client.on('commandStarted', started);
    try {
      return { value: await fn(), reads };
    } finally {
      client.off('commandStarted', started);
    }
  }

  // The store's plan on FerretDB (point reads, the epochs read one by one) and the MongoDB plan
  // (one `$in` per read, the epochs read together).
  it.each(['auto', 'mongodb'] as const)(
    'serves facts read again without reading them, and sees another process change, retire and purge them (%s plan)',
    async (plan) => {
      const { a, b } = await twoStores(`cross_${plan}`, plan);
      try {
        const facts = [makeFact({ text: 'kept one' }), makeFact({ text: 'kept two' })];
        await b.facts.insert(facts);
        const ids = facts.map((f) => f.id);
        // The first read learns the epoch, the second keeps what it reads, the third reads no fact.
        await a.facts.get(G1, ids);
        await a.facts.get(G1, ids);
        const third = await countFactReads(() => a.facts.get(G1, ids));
        expect(third.reads).toBe(0);
        expect(third.value.map((f) => f.text).sort()).toEqual(['kept one', 'kept two']);

        await b.facts.update(G1, ids[0] as string, { strength: 7 }, { at: T0 });
        // A change's new epoch token goes out in the background; close waits for it.
        await b.close();
        const changed = await countFactReads(() => a.facts.get(G1, ids));
        expect(changed.reads).toBeGreaterThan(0);
        expect(changed.value.find((f) => f.id === ids[0])?.strength).toBe(7);

        await a.facts.get(G1, ids);
        await b.facts.update(G1, ids[1] as string, { validUntil: T0 }, { at: T0 });
        await b.close();
        expect((await a.facts.get(G1, ids)).find((f) => f.id === ids[1])?.validUntil).toEqual(T0);

        await a.facts.get(G1, ids);
        await b.admin.applyPurge(purgeOf(ids));
        // A removal is reported done only once its epoch moved: no wait on the other process.
        expect(await a.facts.get(G1, ids)).toEqual([]);
      } finally {
        await a.close();
        await b.close();
      }
    },
  );

  it('reads around its own writes: a fact this process changes is never served from before the change', async () => {
    const { a, b } = await twoStores('own');
    try {
      const fact = makeFact({ text: 'changed here' });
      await a.facts.insert([fact]);
      await a.facts.get(G1, [fact.id]);
      await a.facts.get(G1, [fact.id]);
      const pending = a.facts.update(G1, fact.id, { strength: 9 }, { at: T0 });
      // Asked while the change is in flight, and right after it returned (its new epoch token may
      // still be on its way): never the kept version once the update has returned.
      await pending;
      expect((await a.facts.get(G1, [fact.id]))[0]?.strength).toBe(9);
      expect((await b.facts.get(G1, [fact.id]))[0]?.strength).toBe(9);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('keeps at most its capacity, dropping the least recently read guilds', async () => {
    const { client, db } = mongo;
    const meta = client.db(`${db}_capacity`).collection<{ _id: string; value: string }>('store_meta');
    const epochs = new FactEpochs(meta as never, {
      logger: undefined,
      pointReads: () => false,
      background: new BackgroundWrites(),
    });
    const keep = new FactKeep(epochs, 3);
    const doc = (g: string, id: string) => ({ _id: factKey(g, id), guildId: g, id }) as unknown as FactDoc;
    let reads = 0;
    const readFacts = async (keys: readonly string[]) => {
      reads += keys.length;
      return new Map(keys.map((k) => [k, doc(guildOfKey(k) as string, k)]));
    };
    const keys = (g: string, ...ids: string[]) => ids.map((id) => factKey(g, id));
    // First read of a guild: nothing kept. Second: kept from then on.
    await keep.read('g1', keys('g1', 'a', 'b'), readFacts);
    await keep.read('g1', keys('g1', 'a', 'b'), readFacts);
    expect(keep.size).toBe(2);
    reads = 0;
    await keep.read('g1', keys('g1', 'a', 'b'), readFacts);
    expect(reads).toBe(0);
    await keep.read('g2', keys('g2', 'c', 'd'), readFacts);
    await keep.read('g2', keys('g2', 'c', 'd'), readFacts);
    // g1 was read least recently: it made room.
    expect(keep.size).toBe(2);
    reads = 0;
    await keep.read('g1', keys('g1', 'a'), readFacts);
    expect(reads).toBe(1);
    // A guild alone never holds more than the capacity.
    await keep.read('g3', keys('g3', 'a', 'b', 'c', 'd', 'e'), readFacts);
    await keep.read('g3', keys('g3', 'a', 'b', 'c', 'd', 'e'), readFacts);
    expect(keep.size).toBeLessThanOrEqual(3);
    // Kept documents are shared, so they are frozen.
    reads = 0;
    const served = await keep.read('g3', keys('g3', 'a', 'b', 'c'), readFacts);
    expect(reads).toBe(0);
    expect(Object.isFrozen(served.get(factKey('g3', 'a')))).toBe(true);
  });
});

function purgeOf(factIds: readonly string[]): PurgePlan {
  return {
    guildId: G1,
    userId: 'nobody',
    factIds,
    links: [],
    deleteRelations: [],
    trimRelations: [],
    stripSources: [],
    aliases: [],
    digestSubjects: [],
    messageIds: [],
    unlinkEntities: [],
    deleteEntities: [],
    reactions: [],
  };
}
