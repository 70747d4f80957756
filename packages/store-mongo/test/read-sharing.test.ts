import { G1, makeFact } from '@permafrost/store-conformance';
import { createMongoStore } from '@permafrost/store-mongo';
import type { CommandStartedEvent } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { mongoSelected, scratchDatabase } from './backend-selection.js';

/** Reads that concurrent callers of one store share instead of sending twice. */
describe.runIf(mongoSelected)('mongo store shared reads', () => {
  const mongo = scratchDatabase('pf_read_share', { monitorCommands: true });

  it('sends one keyword query per term for concurrent searches that share terms (FerretDB; one $in each elsewhere)', async () => {
    const { client, db } = mongo;
    const store = createMongoStore({ client, dbName: `${db}_terms` });
    await store.setup();
    await store.facts.insert([
      makeFact({ subjectId: 'u1', text: 'keeps bees on the roof' }),
      makeFact({ subjectId: 'u1', text: 'plays the cello' }),
      makeFact({ subjectId: 'u2', text: 'grows a roof garden' }),
    ]);
    const info = (await client.db(`${db}_terms`).admin().command({ buildInfo: 1 })) as {
      ferretdbVersion?: unknown;
    };
    const ferret = info.ferretdbVersion !== undefined;
    const finds: unknown[] = [];
    const started = (e: CommandStartedEvent) => {
      const filter = e.command['filter'] as { terms?: unknown } | undefined;
      if (e.commandName === 'find' && e.command['find'] === 'facts' && filter?.terms !== undefined)
        finds.push(filter.terms);
    };
    client.on('commandStarted', started);
    try {
      const [a, b] = await Promise.all([
        store.facts.searchText({ guildId: G1 }, ['roof', 'garden'], 10),
        store.facts.searchText({ guildId: G1 }, ['roof', 'cello'], 10),
      ]);
      expect(a.map((h) => h.fact.text).sort()).toEqual(['grows a roof garden', 'keeps bees on the roof']);
      expect(b.map((h) => h.fact.text).sort()).toEqual([
        'grows a roof garden',
        'keeps bees on the roof',
        'plays the cello',
      ]);
      // FerretDB: one equality query per term, "roof" once for both searches.
      expect(finds).toHaveLength(ferret ? 3 : 2);
    } finally {
      client.off('commandStarted', started);
      await store.close();
    }
  });
});
