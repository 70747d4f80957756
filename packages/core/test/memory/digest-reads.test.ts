import { describe, expect, it } from 'vitest';
import { createInMemoryStore } from '../../src/index.js';
import { StoreWaves } from '../../src/testing/store-waves.js';
import { ALICE, BOB, GUILD, harness, op, ops } from './helpers.js';

/**
 * Refreshing a member's digest after a commit reads the opt-outs, the member's strongest facts and
 * the current digest. None of the three depends on another, so they go out together: on a remote
 * store that is one round trip, not three.
 */
const aliceGrows = [
  op({ text: 'Alice grows tomatoes on her balcony' }),
  op({ text: 'Alice grows peppers in her garden' }),
];

/** A memory that refreshes digests every 2 facts, over a store whose calls are counted in waves. */
function digestHarness() {
  const counted = new StoreWaves(createInMemoryStore());
  const h = harness(
    { extraction: { digestEveryFacts: 2, digestSanityThreshold: 0.3 } },
    { store: counted.store },
  );
  return { counted, h };
}

describe('digest refresh', () => {
  it('reads opt-outs, strongest facts and the current digest in one wave', async () => {
    const { counted, h } = digestHarness();
    h.llm.script('extraction', ops(...aliceGrows));
    h.llm.script('summarize', 'Alice grows tomatoes on her balcony and peppers in her garden.');
    await h.say(ALICE, 'i grow tomatoes on my balcony and peppers in the garden');
    const { byWave } = await counted.measure(() => h.memory.flush({ guildId: GUILD }));
    const digestWave = byWave.find((wave) => wave.includes('digests.getDigest'));
    expect(digestWave).toEqual(expect.arrayContaining(['consent.optedOutUsers', 'facts.topStrength']));
    // The summary's charge goes out with the digest's write, not before it.
    expect(byWave.find((wave) => wave.includes('digests.putDigest'))).toContain('budgets.chargeTokens');
    // The digest was written from those reads.
    const block = (await h.memory.promptContext({ guildId: GUILD, askerId: ALICE, text: 'what do i grow?' }))
      .injectionBlock;
    expect(block).toContain('Summary:');
    await h.memory.close();
  });

  it("reads every subject's inputs in one wave when a commit touches several members", async () => {
    const { counted, h } = digestHarness();
    h.llm.script(
      'extraction',
      ops(
        ...aliceGrows,
        op({ subject: 'p1', speaker: 'p0', text: 'Bob grows tomatoes on his balcony', sources: [1] }),
        op({ subject: 'p1', speaker: 'p0', text: 'Bob grows peppers in his garden', sources: [1] }),
      ),
    );
    h.llm.script('summarize', 'Alice grows tomatoes on her balcony and peppers in her garden.');
    await h.say(ALICE, `me and <@${BOB}> both grow tomatoes on the balcony and peppers in the garden`, {
      mentionIds: [BOB],
    });
    const { byWave } = await counted.measure(() => h.memory.flush({ guildId: GUILD }));
    const reads = byWave.filter((wave) => wave.includes('digests.getDigest'));
    expect(reads).toHaveLength(1);
    expect(reads[0]?.filter((call) => call === 'digests.getDigest')).toHaveLength(2);
    expect(reads[0]?.filter((call) => call === 'facts.topStrength')).toHaveLength(2);
    // Both summaries were still asked for, one after the other.
    expect(h.llm.callsFor('summarize')).toHaveLength(2);
    for (const member of [ALICE, BOB])
      expect(await counted.store.digests.getDigest(GUILD, member)).not.toBeNull();
    await h.memory.close();
  });
});
