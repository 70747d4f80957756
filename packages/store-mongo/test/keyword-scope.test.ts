import { indexTerms, searchBm25 } from '@permafrost/core/store';
import { G1, makeFact } from '@permafrost/store-conformance';
import { createMongoStore } from '@permafrost/store-mongo';
import type { CommandStartedEvent, CommandSucceededEvent } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { mongoSelected, scratchDatabase } from './backend-selection.js';

/**
 * A member's keyword search reads that member's matching facts, not every fact of the guild that
 * shares a word with the query, and still ranks by BM25 over the whole guild (as SQLite FTS5 does).
 */
describe.runIf(mongoSelected)('mongo store keyword search scope', () => {
  const mongo = scratchDatabase('pf_keyword_scope', { monitorCommands: true });
  const crowd = Array.from({ length: 40 }, (_, i) =>
    makeFact({ subjectId: 'u1', text: `talked about the roof repair, visit ${i}` }),
  );
  const mine = [
    makeFact({ subjectId: 'u2', text: 'grows tomatoes in a roof garden' }),
    makeFact({ subjectId: 'u2', text: 'keeps bees on the roof' }),
    makeFact({ subjectId: 'u2', text: 'plays the cello' }),
  ];
  const server = makeFact({ subjectId: null, text: 'the roof party is on friday' });

  /** BM25 of the query over every fact of the guild, as core ranks a corpus it reads in full. */
  const expected = (
    all: readonly { id: string; text: string }[],
    inScope: ReadonlySet<string>,
    q: string[],
  ) =>
    searchBm25(
      all.map((f) => ({ id: f.id, terms: indexTerms(f.text) })),
      all.filter((f) => inScope.has(f.id)).map((f) => ({ id: f.id, terms: indexTerms(f.text) })),
      q,
      10,
    );

  for (const queryPlan of ['ferretdb', 'mongodb'] as const) {
    it(`reads only the scope's matching facts and scores them against the guild (${queryPlan} plan)`, async () => {
      const { client, db } = mongo;
      const store = createMongoStore({ client, dbName: `${db}_${queryPlan}`, queryPlan });
      await store.setup();
      await store.facts.insert([...crowd, ...mine, server]);
      const finds = new Set<number>();
      const read: { subjectId: unknown }[] = [];
      let counts = 0;
      const started = (e: CommandStartedEvent) => {
        const filter = e.command['filter'] as { terms?: unknown } | undefined;
        if (e.commandName === 'find' && e.command['find'] === 'facts' && filter?.terms !== undefined)
          finds.add(e.requestId);
        if (e.commandName === 'aggregate' && e.command['aggregate'] === 'facts') counts++;
      };
      const succeeded = (e: CommandSucceededEvent) => {
        if (!finds.has(e.requestId)) return;
        const cursor = (e.reply as { cursor?: { firstBatch?: { subjectId: unknown }[] } }).cursor;
        read.push(...(cursor?.firstBatch ?? []));
      };
      client.on('commandStarted', started);
      client.on('commandSucceeded', succeeded);
      const q = indexTerms('roof garden');
      try {
        const hits = await store.facts.searchText({ guildId: G1, subjectIds: ['u2'] }, q, 10);
        const want = expected([...crowd, ...mine, server], new Set(mine.map((f) => f.id)), q);
        expect(hits.map((h) => h.fact.id)).toEqual(want.hits.map((h) => h.id));
        for (const [i, h] of hits.entries()) expect(h.score).toBeCloseTo(want.hits[i]?.score as number, 10);
        expect(hits[0]?.fullMatchScore).toBeCloseTo(want.fullMatchScore, 10);
        // Only the member's two roof facts came back from the server, none of the 40 others.
        expect(read.length).toBeGreaterThan(0);
        expect(read.every((d) => d.subjectId === 'u2')).toBe(true);
        const firstCounts = counts;
        expect(firstCounts).toBeGreaterThan(0);

        // The guild's counts are reused by the next search while this process writes no facts…
        await store.facts.searchText({ guildId: G1, subjectIds: ['u2'] }, q, 10);
        expect(counts).toBe(firstCounts);

        // …and counted again after it does: the new fact moves the terms' idf.
        const more = makeFact({ subjectId: 'u1', text: 'a garden on every roof' });
        await store.facts.insert([more]);
        const after = await store.facts.searchText({ guildId: G1, subjectIds: ['u2'] }, q, 10);
        expect(counts).toBeGreaterThan(firstCounts);
        const want2 = expected([...crowd, ...mine, server, more], new Set(mine.map((f) => f.id)), q);
        for (const [i, h] of after.entries()) expect(h.score).toBeCloseTo(want2.hits[i]?.score as number, 10);
        expect(after[0]?.score).not.toBeCloseTo(hits[0]?.score as number, 6);

        // The server's facts when the scope includes them; the whole guild without a scope.
        const withServer = await store.facts.searchText(
          { guildId: G1, subjectIds: ['u2'], includeServer: true },
          q,
          10,
        );
        expect(withServer.map((h) => h.fact.id).sort()).toEqual(
          [server.id, ...mine.slice(0, 2).map((f) => f.id)].sort(),
        );
        const guild = await store.facts.searchText({ guildId: G1 }, q, 100);
        expect(guild).toHaveLength(crowd.length + 4);
      } finally {
        client.off('commandStarted', started);
        client.off('commandSucceeded', succeeded);
        await store.close();
      }
    });
  }
});
