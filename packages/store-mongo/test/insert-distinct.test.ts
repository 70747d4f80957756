import { G1, makeFact } from '@permafrost/store-conformance';
import { createMongoStore } from '@permafrost/store-mongo';
import { describe, expect, it } from 'vitest';
import { mongoSelected, scratchDatabase } from './backend-selection.js';

/**
 * Two store objects on one database stand for two bot processes (each has its own in-process
 * locks): when both commit the same (subject, text) at the same moment, without a transaction to
 * serialise them, the fact is still stored once and the other one gets it back as the duplicate.
 */
describe.runIf(mongoSelected)('mongo store insertDistinct across processes', () => {
  const mongo = scratchDatabase('pf_distinct');
  const { db } = mongo;

  it('stores a fact committed by two processes at once exactly once', async () => {
    const a = createMongoStore({ client: mongo.client, dbName: db });
    const b = createMongoStore({ client: mongo.client, dbName: db });
    await a.setup();
    await b.setup();
    try {
      for (let round = 0; round < 8; round++) {
        const text = `alice collects stamps from ${round} countries`;
        const mine = makeFact({ text });
        const theirs = makeFact({ text });
        const other = makeFact({ text: `alice visited ${round} museums` });
        const [fromA, fromB] = await Promise.all([
          a.facts.insertDistinct(G1, [mine, other]),
          b.facts.insertDistinct(G1, [theirs]),
        ]);
        const answers = [fromA[0] ?? null, fromB[0] ?? null];
        // Exactly one of the two was inserted; the other got the stored one back.
        expect(answers.filter((f) => f === null)).toHaveLength(1);
        const winner = answers[0] === null ? mine : theirs;
        expect(answers.find((f) => f !== null)?.id).toBe(winner.id);
        expect(fromA[1]).toBeNull();
        const stored = await a.facts.get(G1, [mine.id, theirs.id]);
        expect(stored.map((f) => f.id)).toEqual([winner.id]);
        expect((await b.facts.findByNormalizedText(G1, 'u1', mine.normalizedText))?.id).toBe(winner.id);
      }
    } finally {
      await a.close();
      await b.close();
    }
    // No lock is left behind once the stores closed (closing waits for the lock deletes in flight).
    expect(await mongo.client.db(db).collection('version_tokens').countDocuments()).toBe(0);
  });
});
