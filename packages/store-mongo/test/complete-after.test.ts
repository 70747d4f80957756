import { ErrorCode } from '@permafrost/core';
import { makeMessage } from '@permafrost/store-conformance';
import { createMongoStore, type MongoMemoryStore } from '@permafrost/store-mongo';
import { afterAll, describe, expect, it } from 'vitest';
import { mongoSelected, scratchDatabase } from './backend-selection.js';

const T = new Date('2026-09-01T00:00:00.000Z');
const TTL = 300;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(mongoSelected)('queue completion started beside the batch writes', () => {
  const scratch = scratchDatabase('pf_complete_after');
  const stores: MongoMemoryStore[] = [];
  afterAll(async () => {
    for (const s of stores) await s.close();
  });

  /** A claim of two messages in a guild of its own; `after` held until the test releases it. */
  async function claimedBatch(guildId: string) {
    const s = createMongoStore({ client: scratch.client, dbName: scratch.db, versionTokenTtlMs: TTL });
    await s.setup();
    stores.push(s);
    await s.queue.enqueueMany(
      [makeMessage({ guildId, authorId: 'u1' }), makeMessage({ guildId, authorId: 'u1' })],
      100,
    );
    const key = { guildId, subjectKey: 'u1' };
    const { messages } = await s.queue.claim({ key, owner: 'w1', now: T, leaseMs: 120_000, limit: 10 });
    expect(messages).toHaveLength(2);
    let release!: () => void;
    const writes = new Promise<void>((resolve) => {
      release = resolve;
    });
    const done = s.queue.complete(
      guildId,
      messages.map((m) => m.messageId),
      'w1',
      T,
      { after: writes },
    );
    done.catch(() => undefined);
    return { s, done, release };
  }

  const outcomes = (guildId: string) =>
    scratch.client.db(scratch.db).collection('queue_outcomes').countDocuments({ guildId });

  it('completes after writes that took longer than a third of the token TTL when the bucket stayed put', async () => {
    const { s, done, release } = await claimedBatch('ca-stayed');
    await sleep(TTL);
    release();
    expect(await done).toBe(2);
    expect(await s.queue.counts('ca-stayed')).toMatchObject({ claimed: 0, processed: 2 });
  });

  it('fails with CONFLICT, marking nothing, when the bucket moved on during long writes', async () => {
    const { s, done, release } = await claimedBatch('ca-moved');
    await sleep(TTL);
    // Another writer changed the bucket meanwhile (as one that took the token for a dead holder's would).
    await scratch.client
      .db(scratch.db)
      .collection<{ _id: string; ep: string }>('queue_buckets')
      .updateOne({ guildId: 'ca-moved' }, { $set: { ep: 'moved-on' } });
    release();
    await expect(done).rejects.toMatchObject({ code: ErrorCode.CONFLICT });
    expect(await outcomes('ca-moved')).toBe(0);
    expect(await s.queue.counts('ca-moved')).toMatchObject({ claimed: 2, processed: 0 });
  });
});
