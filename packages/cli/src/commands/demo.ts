import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemory } from '@permafrost/core';
import { str } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import type { Command } from './types.js';

const GUILD = '700000000000000001';
const CHANNEL = '700000000000000002';
const PEOPLE = {
  alice: { id: '710000000000000001', name: 'Alice' },
  bob: { id: '710000000000000002', name: 'Bob' },
  carol: { id: '710000000000000003', name: 'Carol' },
} as const;
type Who = keyof typeof PEOPLE;

/** A small guild conversation over two weeks; the heuristic extractor reads it offline. */
const SCRIPT: readonly (readonly [day: number, who: Who, text: string, mentions?: readonly Who[]])[] = [
  [0, 'alice', 'hey everyone! i live in omaha and i work as a nurse'],
  [0, 'bob', 'welcome alice! i love rust and i play chess every weekend'],
  [0, 'carol', 'hi all, my name is caroline but call me carol. i have a dog named biscuit'],
  [0, 'alice', 'i love hiking and my favorite food is ramen'],
  [0, 'bob', 'lol nice'],
  [0, 'carol', 'game night is every friday at 8pm in the voice channel'],
  [1, 'bob', 'i hate pineapple on pizza, fight me'],
  [1, 'carol', 'i am learning japanese, finally reading manga without a dictionary'],
  [2, 'alice', 'brb getting food'],
  [9, 'alice', 'big news: i moved to seattle last week!'],
  [9, 'bob', 'i quit energy drinks this month, feeling great'],
  [10, 'carol', 'loves board games too, we played catan for hours', ['bob']],
];

export const demoCommand: Command = {
  name: 'demo',
  summary:
    'play a small guild through the full pipeline (SQLite, offline heuristic extractor) and print the memory block',
  usage: '[--db <path>]',
  options: {},
  async run(ctx) {
    const own = str(ctx, 'db') === undefined;
    const dir = own ? mkdtempSync(join(tmpdir(), 'permafrost-demo-')) : null;
    const db = own ? join(dir as string, 'demo.db') : (str(ctx, 'db') as string);
    const start = new Date('2026-11-01T18:00:00Z').getTime();
    let now = start;
    const memory = createMemory(
      { storage: `sqlite://${db}`, llm: 'heuristic', workers: { enabled: false } },
      { clock: { now: () => new Date(now) } },
    );
    const out = ctx.out;
    try {
      out.line(`Permafrost demo — SQLite file ${db}, offline heuristic extractor\n`);
      let n = 0;
      let flushedBeforeWeek2 = false;
      for (const [day, who, text, mentions] of SCRIPT) {
        if (day >= 9 && !flushedBeforeWeek2) {
          flushedBeforeWeek2 = true;
          out.line(
            `  … a week later (extraction ran in the background: ${await memory.flush()} batch(es)) …`,
          );
        }
        now = start + day * 86_400_000 + ++n * 60_000;
        const p = PEOPLE[who];
        const content = mentions ? `${mentions.map((m) => `<@${PEOPLE[m].id}>`).join(' ')} ${text}` : text;
        const receipt = await memory.observe({
          messageId: String(720000000000000000n + BigInt(n)),
          guildId: GUILD,
          channelId: CHANNEL,
          authorId: p.id,
          content,
          createdAt: new Date(now),
          authorUsername: who,
          authorDisplayName: p.name,
          mentionIds: (mentions ?? []).map((m) => PEOPLE[m].id),
        });
        out.line(
          `  ${p.name.padEnd(6)} ${text.length > 64 ? `${text.slice(0, 63)}…` : text.padEnd(64)} → ${receipt.status}`,
        );
      }
      const batches = await memory.flush();
      out.line(
        `\nExtracted in ${batches} more batch(es). Everything memory holds (retired facts kept for history):`,
      );
      const snapshot = await memory.admin.exportGuild({ guildId: GUILD });
      const byId = new Map(Object.values(PEOPLE).map((p) => [p.id as string, p.name]));
      out.table(
        snapshot.facts.map((f) => ({
          about: f.subjectId === null ? 'server' : (byId.get(f.subjectId) ?? f.subjectId),
          fact: f.text,
          tier: f.tier,
          active: f.validUntil === null && f.supersededById === null ? 'yes' : 'retired',
        })),
      );
      const question = 'what do you know about bob? also, where do I live now?';
      out.line(`\nAlice asks: "${question}" (mentioning Bob)\n`);
      const pc = await memory.promptContext({
        guildId: GUILD,
        askerId: PEOPLE.alice.id,
        text: question,
        mentionedIds: [PEOPLE.bob.id],
        // Asked in the channel the conversation happened in: everything learned there is visible.
        audience: { channelId: CHANNEL, requesterId: PEOPLE.alice.id },
      });
      out.line(pc.injectionBlock || '(no memory block)');
      const reply = 'Bob loves Rust [mem:1] and you live in Seattle now.';
      out.line(`\nA reply echoing a tag, after applyCitations:\n  ${pc.applyCitations(reply)}`);
      const found = await memory.conversation.search({
        guildId: GUILD,
        text: 'remember when we talked about game night?',
        limit: 2,
        audience: { channelId: CHANNEL, requesterId: PEOPLE.alice.id },
      });
      out.line('\nConversation search "remember when we talked about game night?":');
      for (const m of found.messages) out.line(`  ${m.message.authorDisplayName}: ${m.message.content}`);
      return ExitCode.OK;
    } finally {
      await memory.close({ drain: false });
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
  },
};
