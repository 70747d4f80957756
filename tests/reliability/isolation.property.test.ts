import { createMemory, type Memory } from '@permafrost/core';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { everyRead, leaks } from './support/reads.js';
import { closeStores, selectedStores } from './support/stores.js';
import {
  CHANNEL_A,
  CHANNEL_B,
  chat,
  GUILD_A,
  GUILD_B,
  marker,
  markerStem,
  members,
} from './support/world.js';

afterAll(closeStores);
/**
 * Guild isolation (issue #12 §5): for random interleavings of two guilds' messages, manual facts,
 * aliases, renames and extraction runs — by the same four members, with the same message ids in both
 * guilds — no read of one guild (recall, promptContext, context, cite, conversation, facts, export,
 * graph, insights, identity) ever returns a word that only the other guild was told.
 */

const MEMBERS = members(4);
const GUILDS = [
  { id: GUILD_A, tag: 'ga', channel: CHANNEL_A },
  { id: GUILD_B, tag: 'gb', channel: CHANNEL_B },
] as const;
const RUNS = { memory: 60, sqlite: 25, mongo: 6 } as const;

type G = 0 | 1;
type Action =
  | { kind: 'say'; guild: G; member: number; template: number; word: number; other: number }
  | { kind: 'remember'; guild: G; member: number; word: number }
  | { kind: 'alias'; guild: G; member: number; word: number }
  | { kind: 'rename'; guild: G; member: number; word: number }
  | { kind: 'flush'; guild: G | 2 };

const guild = fc.constantFrom<G>(0, 1);
const who = fc.nat({ max: MEMBERS.length - 1 });
const word = fc.nat({ max: 15 });
const action: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('say' as const),
      guild,
      member: who,
      template: fc.nat({ max: 6 }),
      word,
      other: who,
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('remember' as const), guild, member: who, word }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('alias' as const), guild, member: who, word }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rename' as const), guild, member: who, word }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('flush' as const), guild: fc.constantFrom<G | 2>(0, 1, 2) }),
  },
);

const cap = (w: string) => w[0]?.toUpperCase() + w.slice(1);

/** Statements the heuristic extractor turns into facts, entities, relations and aliases. */
function content(template: number, w: string, mention: string): string {
  switch (template) {
    case 0:
      return `I love playing ${w} with my friends every weekend`;
    case 1:
      return `I live in ${cap(w)} and I work at ${cap(w)}corp as a baker`;
    case 2:
      return `<@${mention}> loves ${w} a lot, they told me yesterday`;
    case 3:
      return `I hate ${w} so much, it ruins every dish`;
    case 4:
      return `my name is ${cap(w)} but everyone calls me ${cap(w)}y`;
    case 5:
      return `our server motto is ${w} and game night is every friday with ${w}`;
    default:
      return `lol ${w}`;
  }
}

async function play(memory: Memory, actions: readonly Action[]): Promise<Set<string>[]> {
  const told = [new Set<string>(), new Set<string>()];
  const seq = [0, 0];
  for (const a of actions) {
    if (a.kind === 'flush') {
      await memory.flush(a.guild === 2 ? {} : { guildId: GUILDS[a.guild].id });
      continue;
    }
    const g = GUILDS[a.guild];
    const m = MEMBERS[a.member] as (typeof MEMBERS)[number];
    const w = marker(g.tag, a.word);
    told[a.guild]?.add(w);
    if (a.kind === 'say') {
      const mention = (MEMBERS[a.other] as (typeof MEMBERS)[number]).id;
      // The same message ids in both guilds.
      seq[a.guild] = (seq[a.guild] ?? 0) + 1;
      const id = String(700000000000000000n + BigInt(seq[a.guild] ?? 0));
      const r = await memory.observe(
        chat(id, m, content(a.template, w, mention), {
          guildId: g.id,
          channelId: g.channel,
          mentions: a.template === 2 ? [mention] : [],
        }),
      );
      expect(r.status).not.toBe('rejected');
    } else if (a.kind === 'remember') {
      await memory.facts.remember({
        guildId: g.id,
        subjectId: m.id,
        text: `${m.name} collects ${w} stamps from markets`,
        entities: [{ name: cap(w), kind: 'concept' }],
        relations: [{ verb: 'likes', toEntity: cap(w) }],
      });
    } else if (a.kind === 'alias') {
      await memory.identity.registerAlias({ guildId: g.id, userId: m.id, alias: cap(w), source: 'manual' });
    } else {
      await memory.identity.handleMemberRename({
        guildId: g.id,
        userId: m.id,
        displayName: `${cap(w)} Prime`,
      });
    }
  }
  await memory.flush();
  return told;
}

describe.each(selectedStores())('guild isolation on the $name store', (store) => {
  it(`no read of one guild returns the other's words (${RUNS[store.name]} random interleavings)`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 6, maxLength: 28 }), async (actions) => {
        const instance = store.open();
        const memory = createMemory(
          { storage: instance.storage, llm: 'heuristic', workers: { enabled: false } },
          instance.overrides,
        );
        try {
          const told = await play(memory, actions);
          for (const g of [0, 1] as const) {
            const o: G = g === 0 ? 1 : 0;
            const other = told[o] as Set<string>;
            const mine = told[g] as Set<string>;
            const results = await everyRead(memory, {
              guildId: GUILDS[g].id,
              channelIds: [GUILDS[0].channel, GUILDS[1].channel],
              memberIds: MEMBERS.map((m) => m.id),
              // Bait: the other guild's words (and a few of this guild's, so the channels have work).
              text: [...other, ...[...mine].slice(0, 3)].join(' ') || 'stamps',
              names: [...other].slice(0, 4).map(cap),
            });
            expect(leaks(results, [markerStem(GUILDS[o].tag), GUILDS[o].channel])).toEqual([]);
            // Sanity: this guild's own words are there to be found.
            if (mine.size > 0 && actions.some((a) => a.kind === 'remember' && a.guild === g))
              expect(leaks(results, [markerStem(GUILDS[g].tag)]).length).toBeGreaterThan(0);
          }
        } finally {
          await memory.close({ drain: false });
          await instance.cleanup();
        }
      }),
      { seed: 20_260_812, numRuns: RUNS[store.name], endOnFailure: true },
    );
  }, 240_000);
});
