import { G1, makeFact } from '@permafrost/store-conformance';
import { createMongoStore } from '@permafrost/store-mongo';
import type { CommandStartedEvent } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { mongoSelected, scratchDatabase } from './backend-selection.js';

/** How reads of many documents reach the server, per query plan (the `queryPlan` option). */
describe.runIf(mongoSelected)('mongo store read plans', () => {
  const mongo = scratchDatabase('pf_read_plan', { monitorCommands: true });
  // More than the driver's default first batch (101 documents), so a plain find would need a getMore.
  const facts = Array.from({ length: 150 }, (_, i) =>
    makeFact({ subjectId: `u${i % 3}`, text: `fact number ${i} about gardening` }),
  );

  async function commandsOf(queryPlan: 'mongodb' | 'ferretdb') {
    const { client, db } = mongo;
    const store = createMongoStore({ client, dbName: `${db}_${queryPlan}`, queryPlan });
    await store.setup();
    await store.facts.insert(facts);
    const sent: string[] = [];
    const started = (e: CommandStartedEvent) => {
      const filter = e.command['filter'] as { _id?: unknown } | undefined;
      if (e.commandName === 'getMore') sent.push('getMore');
      else if (e.commandName === 'find' && e.command['find'] === 'facts')
        sent.push(typeof filter?._id === 'string' ? 'find one' : 'find many');
    };
    client.on('commandStarted', started);
    try {
      const read = await store.facts.get(
        G1,
        facts.map((f) => f.id),
      );
      expect(read.map((f) => f.id).sort()).toEqual(facts.map((f) => f.id).sort());
      return { plan: store.profile.queryPlan, sent };
    } finally {
      client.off('commandStarted', started);
      await store.close();
    }
  }

  it("queryPlan 'mongodb' reads many documents with one $in query, in one reply (no getMore)", async () => {
    const { plan, sent } = await commandsOf('mongodb');
    expect(plan).toBe('mongodb');
    expect(sent).toEqual(['find many']);
  });

  it("queryPlan 'ferretdb' reads them with point reads by _id", async () => {
    const { plan, sent } = await commandsOf('ferretdb');
    expect(plan).toBe('ferretdb');
    expect(sent).toEqual(facts.map(() => 'find one'));
  });
});
