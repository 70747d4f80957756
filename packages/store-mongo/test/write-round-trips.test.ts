import { G1, makeFact, T0 } from '@permafrost/store-conformance';
import { createMongoStore } from '@permafrost/store-mongo';
import type { CommandStartedEvent } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { mongoSelected, scratchDatabase } from './backend-selection.js';

/** Round trips that writes do not wait for (each is latency a bot far from its server pays). */
describe.runIf(mongoSelected)('mongo store write round trips', () => {
  const mongo = scratchDatabase('pf_write_rt', { monitorCommands: true });

  /**
   * A guarded write deletes its version token after the write, but the caller does not wait for
   * that delete's answer (the token names a version that no longer exists). Closing the store
   * waits for the deletes still in flight.
   */
  it('returns from a guarded update before its token delete is answered, and close waits for it', async () => {
    const { client, db } = mongo;
    const store = createMongoStore({ client, dbName: `${db}_release` });
    await store.setup();
    const fact = makeFact({ text: 'release after the write' });
    await store.facts.insert([fact]);
    const deletes = new Map<number, 'sent' | 'answered'>();
    const started = (e: CommandStartedEvent) => {
      if (e.commandName === 'delete' && e.command['delete'] === 'version_tokens')
        deletes.set(e.requestId, 'sent');
    };
    const answered = (e: { requestId: number }) => {
      if (deletes.has(e.requestId)) deletes.set(e.requestId, 'answered');
    };
    client.on('commandStarted', started);
    client.on('commandSucceeded', answered);
    client.on('commandFailed', answered);
    try {
      const next = await store.facts.update(G1, fact.id, { strength: 4 }, { at: T0 });
      expect(next?.strength).toBe(4);
      // The update returned without waiting for the delete's answer (the driver may not even have
      // written it to a connection yet).
      expect([...deletes.values()]).not.toContain('answered');
      await store.close();
      expect([...deletes.values()]).toEqual(['answered']);
      expect(await client.db(`${db}_release`).collection('version_tokens').countDocuments()).toBe(0);
    } finally {
      client.off('commandStarted', started);
      client.off('commandSucceeded', answered);
      client.off('commandFailed', answered);
      await store.close();
    }
  });

  it('updates a fact it has just written without reading it again, also two updates of it at once', async () => {
    const { client, db } = mongo;
    const store = createMongoStore({ client, dbName: `${db}_rewrite` });
    await store.setup();
    const fact = makeFact({ text: 'written twice in one commit' });
    await store.facts.insert([fact]);
    let reads = 0;
    const started = (e: CommandStartedEvent) => {
      if (e.commandName === 'find' && e.command['find'] === 'facts') reads++;
    };
    client.on('commandStarted', started);
    try {
      await store.facts.update(G1, fact.id, { strength: 2 }, { at: T0 });
      reads = 0;
      // A reinforcement and the end of the same fact, sent together: the second waits for the
      // first and starts from the version it wrote; neither reads the fact.
      const [reinforced, ended] = await Promise.all([
        store.facts.update(G1, fact.id, { strength: 3 }, { at: T0 }),
        store.facts.update(G1, fact.id, { validUntil: T0 }, { at: T0 }),
      ]);
      expect(reads).toBe(0);
      expect(reinforced?.version).toBe(3);
      expect(ended).toMatchObject({ version: 4, strength: 3, validUntil: T0 });
      // A version another process wrote meanwhile costs a read, never a lost write.
      const other = createMongoStore({ client, dbName: `${db}_rewrite` });
      await other.facts.update(G1, fact.id, { strength: 7 }, { at: T0 });
      reads = 0;
      const after = await store.facts.update(G1, fact.id, { strength: 8 }, { at: T0 });
      expect(after).toMatchObject({ version: 6, strength: 8, validUntil: T0 });
      expect(reads).toBeGreaterThan(0);
      await other.close();
    } finally {
      client.off('commandStarted', started);
      await store.close();
    }
  });

  it('reads the stored vector length once for vector writes moments apart, and again after a reset', async () => {
    const { client, db } = mongo;
    const store = createMongoStore({ client, dbName: `${db}_dims` });
    await store.setup();
    const vector = (id: string, dims: number) => ({
      kind: 'fact' as const,
      id,
      guildId: G1,
      subjectId: 'u1',
      active: true,
      vector: new Float32Array(dims).fill(0.5),
    });
    let dimsReads = 0;
    const started = (e: CommandStartedEvent) => {
      if (e.commandName === 'find' && e.command['find'] === 'store_meta') dimsReads++;
    };
    client.on('commandStarted', started);
    try {
      await store.vectors.upsert([vector('a', 8)]);
      dimsReads = 0;
      await store.vectors.upsert([vector('b', 8)]);
      await store.vectors.upsert([vector('c', 8)]);
      expect(dimsReads).toBeLessThanOrEqual(1);
      // A different length is still refused, from the remembered length.
      await expect(store.vectors.upsert([vector('d', 4)])).rejects.toMatchObject({
        code: 'DIMENSION_MISMATCH',
      });
      // A reset by this process forgets it: the next write sets the new length.
      await store.vectors.reset();
      await store.vectors.upsert([vector('e', 4)]);
      expect(await store.vectors.dimensions()).toBe(4);
    } finally {
      client.off('commandStarted', started);
      await store.close();
    }
  });

  it("charges a budget while another caller's transaction scope is open, where the server has no transactions", async () => {
    const { client, db } = mongo;
    const store = createMongoStore({ client, dbName: `${db}_charge` });
    await store.setup();
    let close!: () => void;
    const held = new Promise<void>((resolve) => {
      close = resolve;
    });
    let opened!: () => void;
    const open = new Promise<void>((resolve) => {
      opened = resolve;
    });
    const scope = store.transaction(async () => {
      opened();
      await held;
    });
    await open;
    // Another caller (outside the scope): a batch's charge beside its commit.
    let charged = false;
    const charge = store.budgets.chargeTokens(G1, ['d:2026-12-06'], 120).then(() => {
      charged = true;
    });
    const settled = async () => {
      for (let i = 0; i < 200 && !charged; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      return charged;
    };
    const atomic = store.capabilities.transactions === 'atomic';
    // Without transactions the charge lands while the scope is still open; in a session
    // transaction every other call waits for the scope (as before).
    expect(await settled()).toBe(!atomic);
    close();
    await scope;
    await charge;
    expect(await store.budgets.tokenUsage(G1, ['d:2026-12-06'])).toEqual({ 'd:2026-12-06': 120 });
    await store.close();
  });

  it('charges with one write and no read, and the charges of every writer count, concurrent ones included', async () => {
    const { client, db } = mongo;
    const one = createMongoStore({ client, dbName: `${db}_charge_counters` });
    const other = createMongoStore({ client, dbName: `${db}_charge_counters` });
    await one.setup();
    const sent: string[] = [];
    const started = (e: CommandStartedEvent) => {
      const coll = e.command[e.commandName];
      if (coll === 'token_budgets' || coll === 'version_tokens') sent.push(`${e.commandName} ${coll}`);
    };
    client.on('commandStarted', started);
    try {
      await one.budgets.chargeTokens(G1, ['d:2026-12-06', 'm:2026-12'], 100);
      // Both periods in one command: no read of the counters, no version token.
      expect(sent).toEqual(['update token_budgets']);
      // Another process (another store object) and this one, each charging many times at once.
      await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          (i % 2 === 0 ? one : other).budgets.chargeTokens(G1, ['d:2026-12-06', 'm:2026-12'], 5),
        ),
      );
      expect(await other.budgets.tokenUsage(G1, ['d:2026-12-06', 'm:2026-12', 'd:2026-12-07'])).toEqual({
        'd:2026-12-06': 160,
        'm:2026-12': 160,
        'd:2026-12-07': 0,
      });
    } finally {
      client.off('commandStarted', started);
      await one.close();
      await other.close();
    }
  });

  it('counts a shared counter written before per-writer counters', async () => {
    const { client, db } = mongo;
    const store = createMongoStore({ client, dbName: `${db}_charge_legacy` });
    await store.setup();
    try {
      // The layout before: one guarded counter per guild and period.
      await client
        .db(`${db}_charge_legacy`)
        .collection<{ _id: string; ep: string; guildId: string; period: string; tokens: number }>(
          'token_budgets',
        )
        .insertOne({
          _id: `${G1.length}:${G1}|12:d:2026-12-06|`,
          ep: 'e1',
          guildId: G1,
          period: 'd:2026-12-06',
          tokens: 40,
        });
      await store.budgets.chargeTokens(G1, ['d:2026-12-06'], 2);
      expect(await store.budgets.tokenUsage(G1, ['d:2026-12-06'])).toEqual({ 'd:2026-12-06': 42 });
    } finally {
      await store.close();
    }
  });

  it('updates a fact read moments ago at the expected version without reading it again; a stale one still fails the version check', async () => {
    const { client, db } = mongo;
    const one = createMongoStore({ client, dbName: `${db}_seen` });
    const other = createMongoStore({ client, dbName: `${db}_seen` });
    await one.setup();
    const fact = makeFact({ text: 'reinforced after a read' });
    await one.facts.insert([fact]);
    const reads: unknown[] = [];
    const started = (e: CommandStartedEvent) => {
      if (e.commandName === 'find' && e.command['find'] === 'facts') reads.push(e.command['filter']);
    };
    client.on('commandStarted', started);
    try {
      const [read] = await one.facts.get(G1, [fact.id]);
      expect(read?.version).toBe(1);
      reads.length = 0;
      const next = await one.facts.update(G1, fact.id, { strength: 4 }, { at: T0, expectedVersion: 1 });
      expect(next).toMatchObject({ version: 2, strength: 4 });
      expect(reads).toEqual([]);
      // Another process changes it after this one read it: the update sees version 3, not 2.
      await one.facts.get(G1, [fact.id]);
      expect(
        await other.facts.update(G1, fact.id, { strength: 5 }, { at: T0, expectedVersion: 2 }),
      ).toMatchObject({
        version: 3,
      });
      expect(await one.facts.update(G1, fact.id, { strength: 6 }, { at: T0, expectedVersion: 2 })).toBeNull();
      const [stored] = await other.facts.get(G1, [fact.id]);
      expect(stored).toMatchObject({ version: 3, strength: 5 });
    } finally {
      client.off('commandStarted', started);
      await one.close();
      await other.close();
    }
  });
});
