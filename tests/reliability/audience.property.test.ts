import { type Audience, createMemory, type Fact, type SourceChannel } from '@permafrost/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

/**
 * Issue #23: random facts learned in random channels (channels, threads, channel-free), random
 * public channels and random audiences — no read ever returns a fact (or a relation resting only on
 * facts) from a channel the policy denies. The detector compares channel ids of returned facts with
 * an oracle of the default policy; it never looks at text, so random ids cannot trip it.
 */
const GUILD = '530000000000000001';
const MEMBERS = ['131000000000000001', '131000000000000002', '131000000000000003'];
const CHANNELS = ['630000000000000001', '630000000000000002', '630000000000000003', '630000000000000004'];
const THREADS: SourceChannel[] = [
  { channelId: '630000000000000101', parentId: CHANNELS[0] as string },
  { channelId: '630000000000000102', parentId: CHANNELS[1] as string },
];
const PLACES: (SourceChannel | null)[] = [
  null,
  ...CHANNELS.map((channelId) => ({ channelId, parentId: null })),
  ...THREADS,
];
const WORDS = ['kayaking', 'sourdough', 'chess', 'violin', 'gardening', 'astronomy', 'pottery', 'climbing'];

/** The default policy, written out independently: own channel, its threads, public channels and their threads. */
function oracle(audience: Audience | null, publicIds: readonly string[], channelFreeVisible: boolean) {
  const allows = (c: SourceChannel) =>
    audience !== null &&
    (c.channelId === audience.channelId ||
      c.parentId === audience.channelId ||
      publicIds.includes(c.channelId) ||
      (c.parentId !== null && publicIds.includes(c.parentId)));
  return (channels: readonly SourceChannel[]) =>
    channels.length === 0 ? channelFreeVisible : channels.every(allows);
}

const fact = fc.record({
  member: fc.nat({ max: MEMBERS.length - 1 }),
  place: fc.nat({ max: PLACES.length - 1 }),
  word: fc.nat({ max: WORDS.length - 1 }),
});
const scenario = fc.record({
  facts: fc.array(fact, { minLength: 1, maxLength: 14 }),
  publicIds: fc.subarray(CHANNELS, { maxLength: 2 }),
  channelFreeVisible: fc.boolean(),
  audience: fc.option(
    fc.record({
      channel: fc.constantFrom(...CHANNELS, ...THREADS.map((t) => t.channelId)),
      asker: fc.nat({ max: MEMBERS.length - 1 }),
    }),
    { nil: null },
  ),
  query: fc.nat({ max: WORDS.length - 1 }),
});

describe('audience property (issue #23)', () => {
  it('no read returns an item whose source channel the policy denies', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const memory = createMemory({
          storage: 'memory',
          llm: null,
          workers: { enabled: false },
          access: { publicChannelIds: s.publicIds, channelFreeVisible: s.channelFreeVisible },
        });
        try {
          const placeOf = new Map<string, readonly SourceChannel[]>();
          for (const [i, f] of s.facts.entries()) {
            const place = PLACES[f.place] ?? null;
            const stored = await memory.facts.remember({
              guildId: GUILD,
              subjectId: MEMBERS[f.member] as string,
              text: `Member ${f.member} enjoys ${WORDS[f.word]} on weekend number ${i}`,
              relations: [{ verb: 'likes', toEntity: WORDS[f.word] as string }],
              ...(place ? { channel: place } : {}),
            });
            placeOf.set(stored.id, stored.channels);
          }
          const audience: Audience | null = s.audience
            ? { channelId: s.audience.channel, requesterId: MEMBERS[s.audience.asker] as string }
            : null;
          const visible = oracle(audience, s.publicIds, s.channelFreeVisible);
          const shown = (facts: readonly { fact: Fact }[]) => facts.map((f) => f.fact.channels);
          const text = `who enjoys ${WORDS[s.query]}?`;
          const withAudience = audience ? { audience } : {};
          const reads = [
            shown((await memory.recall({ guildId: GUILD, text, ...withAudience })).facts),
            shown((await memory.facts.search({ guildId: GUILD, text, ...withAudience })).facts),
            shown(
              (
                await memory.promptContext({
                  guildId: GUILD,
                  askerId: MEMBERS[s.audience?.asker ?? 0] as string,
                  text,
                  mentionedIds: MEMBERS,
                  ...withAudience,
                })
              ).facts,
            ),
          ];
          for (const channels of reads.flat()) expect(visible(channels)).toBe(true);
          for (const member of MEMBERS) {
            const edges = await memory.graph.relationsOf({ guildId: GUILD, userId: member, ...withAudience });
            for (const e of edges)
              expect(
                e.evidenceFactIds.some((id) =>
                  visible(placeOf.get(id) ?? [{ channelId: '?', parentId: null }]),
                ),
              ).toBe(true);
          }
          // And nothing visible is lost: a guild-wide recall of a visible fact's own words finds it.
          const anyVisible = [...placeOf.values()].some((c) => visible(c));
          if (!anyVisible) expect(reads.flat()).toEqual([]);
        } finally {
          await memory.close({ drain: false });
        }
      }),
      { numRuns: 60, seed: 2312 },
    );
  }, 120_000);
});
