import { G1, makeFact } from '@permafrost/store-conformance';
import { createMongoStore } from '@permafrost/store-mongo';
import { describe, expect, it } from 'vitest';
import { mongoSelected, scratchDatabase } from './backend-selection.js';

/**
 * Server facts carry a scope key (`sk`) so that FerretDB can serve "the server's facts" from an
 * index; facts written before it existed get theirs at setup, and the per-subject reads FerretDB
 * gets return what one query would.
 */
describe.runIf(mongoSelected)('mongo store fact scope key', () => {
  const mongo = scratchDatabase('pf_scope');
  const { db } = mongo;

  it('gives old server facts their scope key at setup, and scoped strongest-first reads find them', async () => {
    const first = createMongoStore({ client: mongo.client, dbName: db });
    await first.setup();
    const server = makeFact({ subjectId: null, text: 'the server has a wiki', strength: 3 });
    const alice = makeFact({ subjectId: 'alice', text: 'alice likes tea', strength: 5 });
    const bob = makeFact({ subjectId: 'bob', text: 'bob likes coffee', strength: 1 });
    const bob2 = makeFact({ subjectId: 'bob', text: 'bob plays chess', strength: 4 });
    await first.facts.insert([server, alice, bob, bob2]);
    await first.close();

    // As written by a version without the key: no `sk`, no migration marker.
    const facts = mongo.client.db(db).collection('facts');
    await facts.updateOne({ id: server.id } as never, { $unset: { sk: '' } });
    expect((await facts.findOne({ id: server.id } as never))?.['sk']).toBeUndefined();
    await mongo.client
      .db(db)
      .collection('store_meta')
      .deleteOne({ _id: 'migration.fact-scope-key' } as never);

    const store = createMongoStore({ client: mongo.client, dbName: db });
    await store.setup();
    try {
      expect((await facts.findOne({ id: server.id } as never))?.['sk']).toEqual(expect.any(String));
      const serverOnly = await store.facts.topStrength({ guildId: G1, serverOnly: true }, 10);
      expect(serverOnly.map((f) => f.id)).toEqual([server.id]);
      const scoped = await store.facts.topStrength(
        { guildId: G1, subjectIds: ['alice', 'bob'], includeServer: true },
        3,
      );
      expect(scoped.map((f) => f.id)).toEqual([alice.id, bob2.id, server.id]);
      const members = await store.facts.topStrength({ guildId: G1, subjectIds: ['bob', 'alice'] }, 10);
      expect(members.map((f) => f.id)).toEqual([alice.id, bob2.id, bob.id]);
    } finally {
      await store.close();
    }
  });
});
