import { describe, expect, it } from 'vitest';
import { ALICE, BOB, CHANNEL, GUILD, harness, op, ops } from './helpers.js';

/** "Configured means wired": each option below changes observable behaviour. */
describe('ingest options', () => {
  it('batching.batchSizeMessages: a key becomes due at that many messages', async () => {
    const h = harness({ batching: { batchSizeMessages: 3, maxAgeSeconds: 3600 } });
    await h.say(ALICE, 'i grow tomatoes on my balcony every summer');
    await h.say(ALICE, 'they are finally turning red this week');
    expect(await h.memory.ops.runPending()).toBe(0);
    await h.say(ALICE, 'planning to try peppers next year too');
    expect(await h.memory.ops.runPending()).toBe(1);
    await h.memory.close();
  });

  it('batching.maxAgeSeconds: a single old message becomes due', async () => {
    const h = harness({ batching: { batchSizeMessages: 10, maxAgeSeconds: 60 } });
    await h.say(ALICE, 'i grow tomatoes on my balcony every summer');
    expect(await h.memory.ops.runPending()).toBe(0);
    h.clock.advanceSeconds(61);
    expect(await h.memory.ops.runPending()).toBe(1);
    await h.memory.close();
  });

  it('batching.serverWindowMessages: the community pass runs once half a window of new messages arrived', async () => {
    const communityCalls = async (window: number) => {
      const h = harness({ batching: { batchSizeMessages: 5, serverWindowMessages: window } });
      for (let i = 0; i < 9; i++)
        await h.say(i % 2 ? ALICE : BOB, `message ${i} about the weekly game night plans`);
      await h.memory.ops.runPending();
      const n = h.llm
        .callsFor('extraction')
        .filter((c) => JSON.stringify(c.task).includes('"scope":"community"')).length;
      await h.memory.close();
      return n;
    };
    expect(await communityCalls(10)).toBe(1);
    expect(await communityCalls(40)).toBe(0);
  });

  it('workers.enabled, count and pollIntervalMs: the background loop extracts without flush, count batches at a time', async () => {
    let inFlight = 0;
    let peak = 0;
    const h = harness({
      workers: { enabled: true, count: 2, pollIntervalMs: 20 },
      // One member's batch per call, so four members' batches are four calls, two at a time.
      batching: { batchSizeMessages: 1, maxMessagesPerCall: 1 },
    });
    h.llm.script('extraction', async () => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 50));
      inFlight--;
      return ops(op({ text: 'Alice grows tomatoes on her balcony' }));
    });
    for (const who of [ALICE, BOB, '333333333333333333', '444444444444444444'])
      await h.say(who, 'i grow tomatoes on my balcony every summer');
    for (let i = 0; i < 100 && (await h.memory.stats({ guildId: GUILD })).processed < 4; i++)
      await new Promise((r) => setTimeout(r, 25));
    expect((await h.memory.stats({ guildId: GUILD })).processed).toBe(4);
    expect(peak).toBe(2);
    await h.memory.close();
  });

  it('batching.maxMessagesPerCall: due batches of several members share a call up to the limit', async () => {
    const members = [ALICE, BOB, '333333333333333333', '444444444444444444'];
    const run = async (maxMessagesPerCall: number) => {
      // One worker: keys are taken in order, so the packing is deterministic.
      const h = harness({ workers: { count: 1 }, batching: { batchSizeMessages: 2, maxMessagesPerCall } });
      h.llm.script('extraction', ops());
      for (const who of members) {
        await h.say(who, 'i grow tomatoes on my balcony every summer');
        await h.say(who, 'and i keep bees on the roof of our building');
      }
      const units = await h.memory.ops.runPending();
      const prompts = h.llm.callsFor('extraction').map((c) => c.messages.map((m) => m.content).join('\n'));
      const stats = await h.memory.stats({ guildId: GUILD });
      await h.memory.close();
      return { units, prompts, processed: stats.processed };
    };
    const shared = await run(6);
    // 4 batches of 2: three fill the first call (6 messages), the fourth gets a call of its own.
    expect(shared.prompts).toHaveLength(2);
    expect(shared.processed).toBe(8);
    expect(shared.units).toBe(2);
    expect(shared.prompts[0]?.match(/\(author of this batch\)/g)).toHaveLength(3);
    const separate = await run(2);
    expect(separate.prompts).toHaveLength(4);
    expect(separate.processed).toBe(8);
    expect(separate.prompts[0]?.match(/\(author of this batch\)/g)).toHaveLength(1);
  });

  it('batching.maxMessagesPerCall: a call with room takes along batches that are not due yet', async () => {
    const run = async (maxMessagesPerCall: number) => {
      const h = harness({ batching: { batchSizeMessages: 3, maxMessagesPerCall } });
      h.llm.script('extraction', ops());
      for (let i = 0; i < 3; i++)
        await h.say(ALICE, `i keep bees on the roof, hive number ${i} is doing well`);
      await h.say(BOB, 'i restore old bicycles in my garage on weekends');
      await h.memory.ops.runPending();
      const calls = h.llm.callsFor('extraction').map((c) => c.messages.map((m) => m.content).join('\n'));
      const stats = await h.memory.stats({ guildId: GUILD });
      await h.memory.close();
      return { calls, pending: stats.pending };
    };
    // Alice's batch is due (3 messages); Bob's single message rides along in the same call.
    const shared = await run(10);
    expect(shared.calls).toHaveLength(1);
    expect(shared.calls[0]).toContain('bicycles');
    expect(shared.pending).toBe(0);
    // Without sharing only the due batch is extracted; Bob's message waits for its own batch.
    const separate = await run(3);
    expect(separate.calls).toHaveLength(1);
    expect(separate.calls[0]).not.toContain('bicycles');
    expect(separate.pending).toBe(1);
  });

  it('extraction.noiseGate: off sends chatter to the model', async () => {
    const h = harness({ extraction: { noiseGate: false } });
    await h.say(ALICE, 'lol ok');
    await h.memory.flush();
    expect(h.llm.callsFor('extraction')).toHaveLength(1);
    await h.memory.close();
  });

  it('extraction.minConfidence, hearsayMinConfidence and maxCandidatesPerBatch gate candidates', async () => {
    const h = harness({
      extraction: { minConfidence: 0.95, hearsayMinConfidence: 0.99, maxCandidatesPerBatch: 2 },
    });
    h.llm.script(
      'extraction',
      ops(
        op({ text: 'Alice grows tomatoes on her balcony', confidence: 0.9 }),
        op({ text: 'Alice heard that Bob moved to Oslo', confidence: 0.97 }),
        op({ text: 'Alice grows peppers in her garden', confidence: 0.97 }),
      ),
    );
    await h.say(ALICE, 'i grow tomatoes on my balcony and peppers in the garden, and i heard bob moved');
    await h.memory.flush();
    expect((await h.memory.facts.getAll({ guildId: GUILD, subjectId: ALICE })).map((f) => f.text)).toEqual(
      [],
    );
    await h.memory.close();
  });

  it('extraction.nearDuplicateThreshold: lower values reinforce paraphrases instead of adding them', async () => {
    const run = async (threshold: number) => {
      const h = harness({ extraction: { nearDuplicateThreshold: threshold } });
      h.llm.script(
        'extraction',
        ops(op({ text: 'Alice grows tomatoes on her sunny balcony' })),
        ops(op({ text: 'Alice grows tomatoes on her balcony' })),
      );
      h.llm.script(
        'reconcile',
        JSON.stringify({
          decisions: [{ candidateIndex: 0, kind: 'ADD', targetId: null, text: null, reason: 'distinct' }],
        }),
      );
      await h.say(ALICE, 'i grow tomatoes on my sunny balcony every summer');
      await h.memory.flush();
      await h.say(ALICE, 'tomatoes on the balcony again this year');
      await h.memory.flush();
      const n = (await h.memory.facts.getAll({ guildId: GUILD, subjectId: ALICE })).length;
      await h.memory.close();
      return n;
    };
    expect(await run(0.5)).toBe(1);
    expect(await run(1)).toBe(2);
  });

  it('extraction.collisionThreshold: similar facts of another category collide only above it', async () => {
    const reconcileCalls = async (threshold: number) => {
      const h = harness({ extraction: { collisionThreshold: threshold, collisionFloor: 0.99 } });
      h.llm.script(
        'extraction',
        ops(op({ text: 'Alice grows tomatoes on her balcony', category: 'interests' })),
        ops(op({ text: 'Alice grows tomatoes for her family', category: 'personal' })),
      );
      await h.say(ALICE, 'i grow tomatoes on my balcony every summer');
      await h.memory.flush();
      await h.say(ALICE, 'grow tomatoes for my family every summer');
      await h.memory.flush();
      const n = h.llm.callsFor('reconcile').length;
      await h.memory.close();
      return n;
    };
    expect(await reconcileCalls(0.3)).toBe(1);
    expect(await reconcileCalls(0.99)).toBe(0);
  });

  it('extraction.maxTokens is the extraction request budget', async () => {
    const h = harness({ extraction: { maxTokens: 777 } });
    await h.say(ALICE, 'i grow tomatoes on my balcony every summer');
    await h.memory.flush();
    expect(h.llm.callsFor('extraction')[0]?.maxTokens).toBe(777);
    await h.memory.close();
  });

  it('extraction.digestEveryFacts and digestSanityThreshold control digests', async () => {
    const run = async (every: number, sanity: number) => {
      const h = harness({ extraction: { digestEveryFacts: every, digestSanityThreshold: sanity } });
      h.llm.script(
        'extraction',
        ops(
          op({ text: 'Alice grows tomatoes on her balcony' }),
          op({ text: 'Alice grows peppers in her garden' }),
        ),
      );
      h.llm.script('summarize', 'Alice grows tomatoes on her balcony and peppers in her garden.');
      await h.say(ALICE, 'i grow tomatoes on my balcony and peppers in the garden');
      await h.memory.flush();
      const block = (
        await h.memory.promptContext({ guildId: GUILD, askerId: ALICE, text: 'what do i grow?' })
      ).injectionBlock;
      await h.memory.close();
      return block.includes('Summary:');
    };
    expect(await run(2, 0.3)).toBe(true);
    expect(await run(0, 0.3)).toBe(false);
    expect(await run(2, 1)).toBe(false);
  });

  it('budgets.guildMonthlyPromptTokens caps extraction like the daily ceiling', async () => {
    const h = harness({ budgets: { guildMonthlyPromptTokens: 10 } });
    await h.say(ALICE, 'i grow tomatoes on my balcony every summer');
    await h.memory.flush();
    await h.say(ALICE, 'and peppers in my garden, they love the sun');
    await h.memory.flush();
    expect(h.llm.callsFor('extraction')).toHaveLength(1);
    await h.memory.close();
  });

  it('budgets.prices price calls the provider does not', async () => {
    const h = harness({ budgets: { prices: { scripted: { prompt: 1_000_000, completion: 0 } } } });
    await h.say(ALICE, 'i grow tomatoes on my balcony every summer');
    await h.memory.flush();
    const meter = await h.memory.ops.meterSnapshot();
    expect(meter.byPurpose['extraction']?.costUsd).toBeCloseTo(
      meter.byPurpose['extraction']?.promptTokens ?? -1,
      5,
    );
    await h.memory.close();
  });

  it('embeddingCacheBytes: 0 turns the embedding cache off; a small bound evicts the least recently used', async () => {
    const count = async (bytes: number) => {
      let calls = 0;
      const h = harness(
        { embeddingCacheBytes: bytes },
        {
          embedder: {
            id: 'count',
            dimensions: 8,
            close: async () => {},
            embed: async (t) => {
              calls += t.length;
              return t.map(() => Float32Array.from([1, 0, 0, 0, 0, 0, 0, 0]));
            },
          },
        },
      );
      for (const text of ['Alice grows tomatoes on her balcony', 'Alice plays the cello in an orchestra'])
        await h.memory.facts.remember({ guildId: GUILD, subjectId: ALICE, text });
      const before = calls;
      await h.memory.recall({ guildId: GUILD, text: 'Alice grows tomatoes on her balcony', scope: 'guild' });
      await h.memory.close();
      return calls - before;
    };
    // an entry is 8 dimensions × 4 bytes + a 44-byte key = 76 bytes
    expect(await count(0)).toBe(1);
    expect(await count(76)).toBe(1);
    expect(await count(152)).toBe(0);
    expect(await count(1024)).toBe(0);
  });
});

describe('lifecycle and conversation options', () => {
  it('lifecycle.decayStabilityDays and forgetRetentionFloor set when unreinforced facts are forgotten', async () => {
    const forgotten = async (stability: number, floor: number) => {
      const h = harness({ lifecycle: { decayStabilityDays: stability, forgetRetentionFloor: floor } });
      h.llm.script('extraction', ops(op({ text: 'Alice likes the band Wolf Alice', category: 'interests' })));
      await h.say(ALICE, 'wolf alice is my favourite band right now honestly');
      await h.memory.flush();
      h.clock.advanceDays(10);
      const r = await h.memory.ops.maintenance({ guildId: GUILD });
      await h.memory.close();
      return r.forgotten;
    };
    expect(await forgotten(7, 0.05)).toBe(0);
    expect(await forgotten(1, 0.05)).toBe(1);
    expect(await forgotten(7, 0.3)).toBe(1);
  });

  it('lifecycle.maxServerFacts caps server facts', async () => {
    const pruned = async (cap: number) => {
      const h = harness({ lifecycle: { maxServerFacts: cap } });
      h.llm.script(
        'extraction',
        ops(
          ...Array.from({ length: 12 }, (_, i) =>
            op({ subject: 'server', text: `The server holds event number ${i} weekly`, category: 'events' }),
          ),
        ),
      );
      await h.say(ALICE, 'we have so many weekly events on this server, let me list them');
      await h.memory.flush();
      const r = await h.memory.ops.maintenance({ guildId: GUILD });
      await h.memory.close();
      return r.pruned;
    };
    expect(await pruned(10)).toBe(2);
    expect(await pruned(20)).toBe(0);
  });

  it('conversation.retentionDays and maxMessagesPerChannel trim history during maintenance', async () => {
    const h = harness({ conversation: { retentionDays: 5, maxMessagesPerChannel: 12 } });
    for (let i = 0; i < 15; i++) await h.say(BOB, `old chatter message number ${i}`);
    await h.memory.flush();
    expect((await h.memory.ops.maintenance({ guildId: GUILD })).processedRowsDeleted).toBe(3);
    h.clock.advanceDays(6);
    expect((await h.memory.ops.maintenance({ guildId: GUILD })).processedRowsDeleted).toBe(12);
    await h.memory.close();
  });

  it('context.hotMessages, cacheTtlSeconds and minScore shape context()', async () => {
    const h = harness({ context: { hotMessages: 3, cacheTtlSeconds: 60, minScore: 0.99 } });
    await h.memory.facts.remember({
      guildId: GUILD,
      subjectId: ALICE,
      text: 'Alice’s favorite game is Hades',
    });
    for (let i = 0; i < 5; i++) await h.say(BOB, `chat line ${i}`);
    const q = { guildId: GUILD, channelId: CHANNEL, askerId: ALICE, text: "what's my favorite game?" };
    const first = await h.memory.context(q);
    expect(first.recent).toHaveLength(3);
    expect(first.block).not.toContain('Hades');
    expect((await h.memory.context(q)).cached).toBe(true);
    h.clock.advanceSeconds(61);
    expect((await h.memory.context(q)).cached).toBe(false);
    await h.memory.close();
  });
});
