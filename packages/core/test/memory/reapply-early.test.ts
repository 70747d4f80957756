import { describe, expect, it } from 'vitest';
import { createInMemoryStore, type MemoryStore } from '../../src/index.js';
import { StoreWaves } from '../../src/testing/store-waves.js';
import { ALICE, GUILD, harness, op, ops, storedFactsAbout } from './helpers.js';

const SUMMARY = 'Alice grows tomatoes on her balcony and peppers in her garden.';
const DIGESTS = { extraction: { digestEveryFacts: 2, digestSanityThreshold: 0.3 } };

/** An in-memory store without atomic transactions (as FerretDB or a MongoDB without a replica set). */
function orderedStore(): MemoryStore {
  const base = createInMemoryStore();
  return { ...base, capabilities: { ...base.capabilities, transactions: 'ordered' } };
}

async function commitTwoFacts(store: MemoryStore, summary: string | (() => Promise<string>)) {
  const h = harness(DIGESTS, { store });
  h.llm.script(
    'extraction',
    ops(
      op({ text: 'Alice grows tomatoes on her balcony' }),
      op({ text: 'Alice grows peppers in her garden' }),
    ),
  );
  h.llm.script('summarize', typeof summary === 'string' ? summary : () => summary());
  await h.say(ALICE, 'i grow tomatoes on my balcony and peppers in the garden');
  return h;
}

/**
 * The store calls of the member batch after wave `after`, until it releases its lease (the
 * community pass that follows opens its own fence).
 */
function callsAfter(byWave: readonly (readonly string[])[], after: number): string[] {
  const end = byWave.findIndex((wave, i) => i > after && wave.includes('queue.releaseLease'));
  expect(end).toBeGreaterThan(after);
  return byWave.slice(after + 1, end).flat();
}

/**
 * Where transactions are not atomic, a batch re-applies the erasures recorded since it began once
 * it has written everything about people (fence-reapply.ts). The read of the erasures goes out as
 * soon as the commit's writes have landed, beside the digest refresh's reads, and serves when the
 * refresh then writes nothing; a digest (or alias) written after it is followed by a fresh read.
 */
describe("the re-application's erasure read", () => {
  it('goes out with the digest refresh when the refresh writes nothing', async () => {
    const counted = new StoreWaves(orderedStore());
    // A summary too short to keep: the digest is not written.
    const h = await commitTwoFacts(counted.store, 'Alice.');
    const { byWave } = await counted.measure(() => h.memory.flush({ guildId: GUILD }));
    const refresh = byWave.findIndex((wave) => wave.includes('digests.getDigest'));
    expect(refresh).toBeGreaterThan(0);
    expect(byWave[refresh]).toContain('erasures.erasuresSince');
    // Not read again before the member batch ends.
    expect(callsAfter(byWave, refresh)).not.toContain('erasures.erasuresSince');
    expect(byWave.flat()).not.toContain('digests.putDigest');
    await h.memory.close();
  });

  it('is read again after a digest is written', async () => {
    const counted = new StoreWaves(orderedStore());
    const h = await commitTwoFacts(counted.store, SUMMARY);
    const { byWave } = await counted.measure(() => h.memory.flush({ guildId: GUILD }));
    const put = byWave.findIndex((wave) => wave.includes('digests.putDigest'));
    expect(put).toBeGreaterThan(0);
    expect(callsAfter(byWave, put)).toContain('erasures.erasuresSince');
    await h.memory.close();
  });

  it('is read again after an alias mined from a new fact is written', async () => {
    const counted = new StoreWaves(orderedStore());
    const h = harness({}, { store: counted.store });
    h.llm.script('extraction', ops(op({ text: "Alice's real name is Alicia" })));
    await h.say(ALICE, 'fun fact, my real name is alicia');
    const { byWave } = await counted.measure(() => h.memory.flush({ guildId: GUILD }));
    // The last upsert: the one from the committed fact (the message's own wording is mined earlier).
    const upsert = byWave.findLastIndex((wave) => wave.includes('aliases.upsert'));
    expect(upsert).toBeGreaterThan(0);
    expect(callsAfter(byWave, upsert)).toContain('erasures.erasuresSince');
    await h.memory.close();
  });

  // The summary call runs once the commit's writes have landed and the erasures have been read
  // once: the purge runs then, and a kept summary is written after it.
  it.each([
    ['a digest is written after it', SUMMARY],
    ['the refresh then writes nothing', 'Alice.'],
  ])('keeps nothing of a member purged during the digest refresh (%s)', async (_, summary) => {
    const store = orderedStore();
    let purge = async () => {};
    const h = await commitTwoFacts(store, async () => {
      await purge();
      return summary;
    });
    purge = () => h.memory.admin.purgeUser({ guildId: GUILD, userId: ALICE, dryRun: false }).then(() => {});
    await h.memory.flush({ guildId: GUILD });
    expect(await store.digests.getDigest(GUILD, ALICE)).toBeNull();
    expect(await storedFactsAbout(store, ALICE)).toEqual([]);
    await h.memory.close();
  });
});
