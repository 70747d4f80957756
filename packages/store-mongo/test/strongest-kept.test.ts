import type { Fact } from '@permafrost/core';
import { G1, makeFact, T0 } from '@permafrost/store-conformance';
import { createMongoStore } from '@permafrost/store-mongo';
import type { CommandStartedEvent } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { mongoSelected, scratchDatabase } from './backend-selection.js';

const at = new Date(T0.getTime() + 60_000);

/**
 * topStrength on the FerretDB plan keeps each scope's ranking for a while and reads its facts again
 * by id (mongo-strongest.ts). The plan decides the commands, so it is forced here on any server.
 */
describe.runIf(mongoSelected)('mongo store: kept strongest-fact rankings (FerretDB plan)', () => {
  const mongo = scratchDatabase('pf_strongest', { monitorCommands: true });

  /** This process's store, another process's store on the same database, and the scope queries sent. */
  async function setup(name: string) {
    const { client, db } = mongo;
    const dbName = `${db}_${name}`;
    const store = createMongoStore({ client, dbName, queryPlan: 'ferretdb' });
    const other = createMongoStore({ client, dbName, queryPlan: 'ferretdb' });
    await store.setup();
    await other.setup();
    const facts = [3, 2, 1, 0.5].map((strength, i) =>
      makeFact({ subjectId: null, scope: 'server', text: `server note ${i}`, strength }),
    );
    await other.facts.insert(facts);
    const scopeQueries: unknown[] = [];
    const started = (e: CommandStartedEvent) => {
      if (e.commandName === 'find' && e.command['find'] === 'facts' && e.command['sort'] !== undefined)
        scopeQueries.push(e.command['filter']);
    };
    client.on('commandStarted', started);
    const strongest = async () =>
      (await store.facts.topStrength({ guildId: G1, serverOnly: true }, 2)).map((f) => f.text);
    const close = async () => {
      client.off('commandStarted', started);
      await store.close();
      await other.close();
    };
    return { store, other, facts, scopeQueries, strongest, close, client, dbName };
  }

  /** Runs a test body over a fresh setup, closing both stores afterwards. */
  async function withSetup(name: string, body: (t: Awaited<ReturnType<typeof setup>>) => Promise<void>) {
    const t = await setup(name);
    try {
      await body(t);
    } finally {
      await t.close();
    }
  }

  it('answers a repeated ask from the kept ranking, reading the facts again by id', async () => {
    await withSetup('repeat', async (t) => {
      expect(await t.strongest()).toEqual(['server note 0', 'server note 1']);
      expect(t.scopeQueries).toHaveLength(1);
      expect(await t.strongest()).toEqual(['server note 0', 'server note 1']);
      expect(t.scopeQueries).toHaveLength(1);
    });
  });

  it('sends one scope query for concurrent asks, each getting the facts', async () => {
    await withSetup('concurrent', async (t) => {
      const answers = await Promise.all([t.strongest(), t.strongest(), t.strongest()]);
      for (const a of answers) expect(a).toEqual(['server note 0', 'server note 1']);
      expect(t.scopeQueries).toHaveLength(1);
    });
  });

  it('queries the scope again when another process retires, reinforces or deletes a kept fact', async () => {
    await withSetup('changed', async (t) => {
      const [first, second, third] = t.facts as [Fact, Fact, Fact];
      expect(await t.strongest()).toEqual(['server note 0', 'server note 1']);
      // Retired elsewhere: never returned from the kept ranking.
      await t.other.facts.update(G1, first.id, { validUntil: at }, { at });
      expect(await t.strongest()).toEqual(['server note 1', 'server note 2']);
      expect(t.scopeQueries).toHaveLength(2);
      // Weakened elsewhere: the order follows the stored strength.
      await t.other.facts.update(G1, second.id, { strength: 0.1 }, { at });
      expect(await t.strongest()).toEqual(['server note 2', 'server note 3']);
      expect(t.scopeQueries).toHaveLength(3);
      // Deleted elsewhere (as a purge does): not returned.
      await t.client.db(t.dbName).collection('facts').deleteOne({ id: third.id });
      expect(await t.strongest()).toEqual(['server note 3', 'server note 1']);
      expect(t.scopeQueries).toHaveLength(4);
    });
  });

  it("sees this process's own new facts at once", async () => {
    await withSetup('own-write', async (t) => {
      expect(await t.strongest()).toEqual(['server note 0', 'server note 1']);
      await t.store.facts.insert([
        makeFact({ subjectId: null, scope: 'server', text: 'server note strongest', strength: 9 }),
      ]);
      expect(await t.strongest()).toEqual(['server note strongest', 'server note 0']);
    });
  });

  it('keeps rankings per scope: a member and the server asked together', async () => {
    await withSetup('scopes', async (t) => {
      await t.other.facts.insert([makeFact({ subjectId: 'u1', text: 'member note', strength: 5 })]);
      const both = async () =>
        (await t.store.facts.topStrength({ guildId: G1, subjectIds: ['u1'], includeServer: true }, 2)).map(
          (f) => f.text,
        );
      expect(await both()).toEqual(['member note', 'server note 0']);
      expect(await both()).toEqual(['member note', 'server note 0']);
      expect(t.scopeQueries).toHaveLength(2);
    });
  });
});
