import { type ChatLLM, createHeuristicLlm, createMemory, type Memory, MemoryError } from '@permafrost/core';
import { FixedClock } from '@permafrost/core/testing';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { everyRead, leaks } from './support/reads.js';
import { fileBytes, openRaw } from './support/sqlite-inspect.js';
import { closeStores, selectedStores } from './support/stores.js';
import { CHANNEL_A, chat, GUILD_A, type Member, marker, markerStem, members } from './support/world.js';

afterAll(closeStores);
/**
 * Opt-out and purge (issue #12 §5, SPEC §8) as properties over random conversations:
 * - after opt-out nothing new is stored for the member (observe ignored, extraction never makes
 *   them a subject or a speaker) and recall / promptContext / graph never show them;
 * - after purge no API returns the member's words and no byte of the SQLite files (db, -wal, -shm)
 *   holds them, while every other member's data stays.
 */

const CREW = members(4);
const RUNS = {
  optOut: { memory: 60, sqlite: 25, mongo: 3 },
  purge: { memory: 60, sqlite: 30, mongo: 4 },
} as const;

type Step =
  | { kind: 'say'; member: number; template: number; word: number; other: number }
  | { kind: 'remember'; member: number; about: number; word: number }
  | { kind: 'alias'; member: number; word: number }
  | { kind: 'flush' };

const who = fc.nat({ max: CREW.length - 1 });
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 7,
    arbitrary: fc.record({
      kind: fc.constant('say' as const),
      member: who,
      template: fc.nat({ max: 5 }),
      word: fc.nat({ max: 30 }),
      other: who,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('remember' as const),
      member: who,
      about: who,
      word: fc.nat({ max: 30 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('alias' as const), member: who, word: fc.nat({ max: 30 }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('flush' as const) }) },
);

const cap = (w: string) => w[0]?.toUpperCase() + w.slice(1);

/** Heuristic-extractable statements: self facts, third-party facts, names, entities, relations. */
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
    default:
      return `honestly ${w} is the best thing that happened this week`;
  }
}

/** The member's own words carry their tag; everyone else's carry `ot`. */
const tagOf = (m: number, target: number) => (m === target ? 'tp' : 'ot');

interface Played {
  /** Words written by the target member (or about them by manual facts), by step. */
  readonly targetWords: Set<string>;
  readonly otherWords: Set<string>;
  /** Message ids the target sent. */
  readonly targetMessages: string[];
}

/** Manual facts refused because their subject opted out (checked by the opt-out property). */
const refused: string[] = [];

async function playSteps(
  memory: Memory,
  steps: readonly Step[],
  target: number,
  clock: FixedClock,
  people: readonly Member[],
  seqStart = 0,
  onTargetReceipt?: (receipt: { status: string; reason: string | null }) => void,
): Promise<Played> {
  const played: Played = { targetWords: new Set(), otherWords: new Set(), targetMessages: [] };
  let seq = seqStart;
  for (const s of steps) {
    clock.advanceSeconds(30);
    if (s.kind === 'flush') {
      await memory.flush();
      continue;
    }
    const m = people[s.member] as Member;
    if (s.kind === 'say') {
      // Talking about the target uses the speaker's words: those stay theirs after a purge.
      const w = marker(tagOf(s.member, target), s.word);
      (s.member === target ? played.targetWords : played.otherWords).add(w);
      const mention = (people[s.other] as Member).id;
      const id = String(900000000000000000n + BigInt(++seq));
      if (s.member === target) played.targetMessages.push(id);
      const receipt = await memory.observe(
        chat(id, m, content(s.template, w, mention), {
          at: clock.now(),
          mentions: s.template === 2 ? [mention] : [],
        }),
      );
      if (s.member === target) onTargetReceipt?.(receipt);
    } else if (s.kind === 'remember') {
      // A manual fact about the target is the target's data; written with their tag.
      const about = people[s.about] as Member;
      const w = marker(tagOf(s.about, target), s.word);
      (s.about === target ? played.targetWords : played.otherWords).add(w);
      try {
        await memory.facts.remember({
          guildId: GUILD_A,
          subjectId: about.id,
          text: `${about.name} collects ${w} stamps from markets`,
          entities: [{ name: cap(w), kind: 'concept' }],
          relations: [{ verb: 'likes', toEntity: cap(w) }],
        });
      } catch (error) {
        // A member who opted out cannot be the subject of a manual fact either.
        if (!MemoryError.is(error, 'SUBJECT_NOT_ALLOWED')) throw error;
        refused.push(w);
      }
    } else {
      const w = marker(tagOf(s.member, target), s.word);
      (s.member === target ? played.targetWords : played.otherWords).add(w);
      await memory.identity.registerAlias({
        guildId: GUILD_A,
        userId: m.id,
        alias: cap(w),
        source: 'manual',
      });
    }
  }
  return played;
}

/** The crew with the target renamed to a word of their own (their display name is their data too). */
function crewWith(target: number): Member[] {
  return CREW.map((m, i) => (i === target ? { id: m.id, name: cap(marker('tp', 999)) } : m));
}

describe.each(selectedStores())('opt-out on the $name store', (store) => {
  it(`after opt-out nothing new is stored and reads never show the member (${RUNS.optOut[store.name]} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 4, maxLength: 16 }),
        fc.array(step, { minLength: 4, maxLength: 16 }),
        who,
        async (before, after, target) => {
          const instance = store.open();
          const clock = new FixedClock('2026-09-01T12:00:00Z');
          // The offline extractor, recording every prompt it is sent.
          const heuristic = createHeuristicLlm();
          const prompts: { at: number; text: string }[] = [];
          const llm: ChatLLM = {
            model: heuristic.model,
            complete: (request) => {
              prompts.push({ at: clock.now().getTime(), text: JSON.stringify(request.messages) });
              return heuristic.complete(request);
            },
          };
          const memory = createMemory(
            {
              storage: instance.storage,
              llm: 'heuristic',
              workers: { enabled: false },
              access: { requireAudience: false },
            },
            { ...instance.overrides, clock, llm },
          );
          const people = crewWith(target);
          const x = people[target] as Member;
          try {
            await playSteps(memory, before, target, clock, people);
            clock.advanceSeconds(30);
            await memory.admin.setOptOut({ guildId: GUILD_A, userId: x.id, optedOut: true });
            const optedOutAt = clock.now().getTime();
            const beforeExport = await memory.admin.exportUser({ guildId: GUILD_A, userId: x.id });
            const receipts: { status: string; reason: string | null }[] = [];
            const played = await playSteps(memory, after, target, clock, people, 10_000, (r) =>
              receipts.push(r),
            );
            await memory.flush();
            expect(await memory.admin.getOptOut({ guildId: GUILD_A, userId: x.id })).toBe(true);
            // Observe ignored every message of the member.
            for (const r of receipts) expect(r).toMatchObject({ status: 'ignored', reason: 'opted_out' });
            const exported = await memory.admin.exportUser({ guildId: GUILD_A, userId: x.id });
            // Nothing of theirs (words, name) is sent to the model after the opt-out, pending messages included.
            const sent = prompts.filter((p) => p.at > optedOutAt).map((p) => p.text.toLowerCase());
            expect(sent.filter((t) => t.includes(markerStem('tp')))).toEqual([]);
            // Nothing new stored: no alias, no message of theirs, no fact made about them or stated by them.
            expect(exported.aliases.map((a) => a.alias).sort()).toEqual(
              beforeExport.aliases.map((a) => a.alias).sort(),
            );
            expect(exported.messages.map((m) => m.messageId).sort()).toEqual(
              beforeExport.messages.map((m) => m.messageId).sort(),
            );
            const guild = await memory.admin.exportGuild({ guildId: GUILD_A });
            const extracted = guild.facts.filter(
              (f) =>
                (f.subjectId === x.id || f.attribution.speakerId === x.id) &&
                f.createdAt.getTime() > optedOutAt,
            );
            expect(extracted.map((f) => f.text)).toEqual([]);
            // Reads never show them.
            const results = await everyRead(memory, {
              guildId: GUILD_A,
              channelIds: [CHANNEL_A],
              memberIds: [x.id, ...people.filter((p) => p.id !== x.id).map((p) => p.id)],
              text: [...played.targetWords, 'stamps', 'love', 'live'].join(' '),
              names: [x.name],
            });
            // recall / promptContext: no fact about them or stated by them, none of their words.
            for (const [label, value] of results.filter(([l]) => /^(recall|promptContext)/.test(l))) {
              const json = JSON.stringify(value);
              expect(json.includes(`"subjectId":"${x.id}"`), `${label} shows a fact about the member`).toBe(
                false,
              );
              expect(
                json.includes(`"speakerId":"${x.id}"`),
                `${label} shows a fact stated by the member`,
              ).toBe(false);
              expect(
                json.toLowerCase().includes(markerStem('tp')),
                `${label} shows the member's words: ${json.slice(Math.max(0, json.toLowerCase().indexOf(markerStem('tp')) - 300), json.toLowerCase().indexOf(markerStem('tp')) + 100)}`,
              ).toBe(false);
            }
            // The graph never shows them as a node (edges they only stated about others may remain).
            for (const [label, value] of results.filter(([l]) => l.startsWith('graph.')))
              expect(JSON.stringify(value).includes(x.id), `${label} shows the member`).toBe(false);
          } finally {
            await memory.close({ drain: false });
            await instance.cleanup();
          }
        },
      ),
      { seed: 8_080, numRuns: RUNS.optOut[store.name], endOnFailure: true },
    );
  }, 240_000);
});

/** Analysed keyword-index terms of the file that contain a tag (FTS5 prefix-compresses terms on disk). */
function indexedTerms(path: string, tag: string): string[] {
  const db = openRaw(path, { readonly: true });
  try {
    const found: string[] = [];
    for (const table of ['facts_fts', 'messages_fts']) {
      db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${table}_v USING fts5vocab(main, ${table}, 'row')`);
      for (const r of db.prepare(`SELECT term FROM temp.${table}_v`).all() as { term: string }[])
        if (r.term.includes(tag)) found.push(`${table}:${r.term}`);
    }
    return found;
  } finally {
    db.close();
  }
}

describe.each(selectedStores())('purge on the $name store', (store) => {
  it(`after purge no API returns the member's words, no byte of the file holds them, others stay (${RUNS.purge[store.name]} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 6, maxLength: 24 }),
        who,
        fc.boolean(),
        async (steps, target, optOutFirst) => {
          const instance = store.open();
          const clock = new FixedClock('2026-09-01T12:00:00Z');
          const memory = createMemory(
            {
              storage: instance.storage,
              llm: 'heuristic',
              workers: { enabled: false },
              access: { requireAudience: false },
            },
            { ...instance.overrides, clock },
          );
          const people = crewWith(target);
          const t = people[target] as Member;
          let closed = false;
          try {
            const played = await playSteps(memory, steps, target, clock, people);
            // The target always has some data: one statement, one manual fact.
            await memory.observe(
              chat('990000000000000001', t, `I love playing ${marker('tp', 500)} with my friends`, {
                at: clock.now(),
              }),
            );
            await memory.facts.remember({
              guildId: GUILD_A,
              subjectId: t.id,
              text: `${t.name} collects ${marker('tp', 501)} stamps`,
            });
            played.targetWords.add(marker('tp', 500)).add(marker('tp', 501));
            await memory.flush();
            if (optOutFirst) await memory.admin.setOptOut({ guildId: GUILD_A, userId: t.id, optedOut: true });
            // A dry run (the default) counts and changes nothing.
            const dry = await memory.admin.purgeUser({ guildId: GUILD_A, userId: t.id });
            expect(dry.dryRun).toBe(true);
            expect(dry.facts + dry.messages).toBeGreaterThan(0);
            const keptOthers = (await memory.admin.exportGuild({ guildId: GUILD_A })).facts
              .filter((f) => f.subjectId !== t.id && f.attribution.speakerId !== t.id)
              .map((f) => f.id)
              .sort();
            const othersMessages = async () =>
              (
                await Promise.all(
                  people
                    .filter((p) => p.id !== t.id)
                    .map((p) =>
                      memory.conversation.authorHistory({ guildId: GUILD_A, authorId: p.id, limit: 1000 }),
                    ),
                )
              )
                .flat()
                .map((m) => `${m.messageId}:${m.content}`)
                .sort();
            const messagesBefore = await othersMessages();
            const report = await memory.admin.purgeUser({ guildId: GUILD_A, userId: t.id, dryRun: false });
            expect({ ...report, dryRun: true }).toEqual({ ...dry, dryRun: true });
            const results = await everyRead(memory, {
              guildId: GUILD_A,
              channelIds: [CHANNEL_A],
              memberIds: people.map((p) => p.id),
              text: [...played.targetWords, t.name].join(' '),
              names: [t.name, ...[...played.targetWords].slice(0, 3).map(cap)],
            });
            expect(leaks(results, [markerStem('tp')])).toEqual([]);
            // Everyone else's facts and messages are all still there.
            const after = await memory.admin.exportGuild({ guildId: GUILD_A });
            expect(after.facts.map((f) => f.id).sort()).toEqual(keptOthers);
            expect(await othersMessages()).toEqual(messagesBefore);
            // Consent survives the purge.
            expect(await memory.admin.getOptOut({ guildId: GUILD_A, userId: t.id })).toBe(optOutFirst);
            await memory.close();
            closed = true;
            if (instance.path) {
              const bytes = fileBytes(instance.path);
              const found = [...played.targetWords, t.name.toLowerCase(), t.name].filter((w) =>
                bytes.includes(Buffer.from(w, 'utf8')),
              );
              expect(found, 'purged words still in the SQLite files').toEqual([]);
              expect(indexedTerms(instance.path, markerStem('tp'))).toEqual([]);
              // Sanity of the scan: the other members' words are still in the file.
              expect(
                bytes.includes(Buffer.from(markerStem('ot'), 'utf8')) || played.otherWords.size === 0,
              ).toBe(true);
            }
          } finally {
            if (!closed) await memory.close({ drain: false });
            await instance.cleanup();
          }
        },
      ),
      { seed: 4_242, numRuns: RUNS.purge[store.name], endOnFailure: true },
    );
  }, 240_000);
});

describe.each(selectedStores())('profile digests that quote a member on the $name store', (store) => {
  const [x, b] = crewWith(0) as [Member, Member];

  /** B's digest is generated from B's facts, one of which X stated: the precondition of both cases. */
  async function quoted() {
    const instance = store.open();
    const memory = createMemory(
      {
        storage: instance.storage,
        llm: 'heuristic',
        workers: { enabled: false },
        access: { requireAudience: false },
      },
      instance.overrides,
    );
    let seq = 0;
    const word = marker('tp', 7);
    await memory.observe(
      chat(String(++seq), x, `<@${b.id}> loves ${word} a lot, they told me yesterday`, { mentions: [b.id] }),
    );
    for (let i = 0; i < 6; i++)
      await memory.observe(
        chat(String(++seq), b, `I love playing ${marker('ot', i)} with my friends every weekend`),
      );
    await memory.flush();
    const digest = (await memory.admin.exportGuild({ guildId: GUILD_A })).digests.find(
      (d) => d.subjectId === b.id,
    );
    expect(digest?.text.toLowerCase()).toContain(word);
    return { instance, memory, word, seq };
  }

  const block = async (memory: Memory) =>
    (
      await memory.promptContext({ guildId: GUILD_A, askerId: b.id, text: 'what do I like?' })
    ).injectionBlock.toLowerCase();

  it('after the quoted member opts out, the digest no longer shows their words, now or when regenerated', async () => {
    const { instance, memory, word } = await quoted();
    try {
      expect(await block(memory)).toContain(word);
      await memory.admin.setOptOut({ guildId: GUILD_A, userId: x.id, optedOut: true });
      expect(await block(memory)).not.toContain(word);
      expect(await memory.regenerateSummaries({ guildId: GUILD_A, userIds: [b.id] })).toBe(1);
      expect(await block(memory)).not.toContain(word);
      expect(await block(memory)).toContain('summary:');
    } finally {
      await memory.close();
      await instance.cleanup();
    }
  });

  it('after the quoted member is purged, no digest holds their words (API and file bytes)', async () => {
    const { instance, memory, word } = await quoted();
    await memory.admin.purgeUser({ guildId: GUILD_A, userId: x.id, dryRun: false });
    expect(await block(memory)).not.toContain(word);
    expect(JSON.stringify(await memory.admin.exportGuild({ guildId: GUILD_A })).toLowerCase()).not.toContain(
      word,
    );
    await memory.close();
    if (instance.path) expect(fileBytes(instance.path).includes(Buffer.from(word))).toBe(false);
    await instance.cleanup();
  });
});
