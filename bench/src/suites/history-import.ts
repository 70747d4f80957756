/**
 * Suite — history import: a server already has 50,000 messages (quick: 3,000) in three channels
 * and a thread, served by the Discord emulator of tests/discord-emulator (REST paging exactly like
 * Discord: newest first, 100 per page), and a real discord.js client. `importChannelHistory` reads
 * it into a SQLite memory with the request ceiling off, so the measure is the pipeline (REST page,
 * discord.js parsing, translation, `observeMany` into SQLite), not Discord's rate limits (at the
 * default ceiling of 5 requests/s an import is bound at 500 msg/s). Then the heuristic extractor
 * (`llm: 'heuristic'`) processes everything imported; reported are its calls per 1,000 messages.
 */
import { once } from 'node:events';
import { join } from 'node:path';
import { createMemory } from '@permafrost/core';
import { importChannelHistory } from '@permafrost/discord';
import { createSqliteStore } from '@permafrost/store-sqlite';
import { ChannelTypes, type DiscordEmulator, startDiscordEmulator } from '@permafrost/tests/discord-emulator';
import { Client, Events, GatewayIntentBits } from 'discord.js';
import { chatLine, type Member, makeMembers } from '../community.js';
import { round, type Suite, target } from '../harness/suite.js';
import { prng } from '../stats.js';

const GUILD = '1098765432109876543';
const BOT = '1098765432109870001';
const CHANNELS = [
  { id: '1200000000000000201', name: 'general', share: 0.4 },
  { id: '1200000000000000202', name: 'games', share: 0.3 },
  { id: '1200000000000000203', name: 'pets', share: 0.2 },
  { id: '1200000000000000204', name: 'weekend-plans', share: 0.1, thread: true },
] as const;

/** Seeds the guild's past: members in turn, realistic chatter, ten seconds apart, ending an hour ago. */
function seed(emu: DiscordEmulator, members: readonly Member[], total: number): void {
  const rand = prng(7);
  for (const channel of CHANNELS) {
    const count = Math.round(total * channel.share);
    const messages = Array.from({ length: count }, () => {
      const author = members[Math.floor(rand() * members.length)] as Member;
      const other = members[Math.floor(rand() * members.length)] as Member;
      return { authorId: author.id, content: chatLine(rand, other) };
    });
    emu.seedHistory(channel.id, messages, {
      startAt: Date.now() - 3_600_000 - count * 10_000,
      stepMs: 10_000,
    });
  }
}

export const historyImportSuite: Suite = async (ctx) => {
  const total = ctx.quick ? 3_000 : 50_000;
  const members = makeMembers(40);
  const emu = await startDiscordEmulator({
    botUser: { id: BOT, username: 'permafrost' },
    guilds: [
      {
        id: GUILD,
        name: 'Bench',
        channels: CHANNELS.map((c) =>
          'thread' in c
            ? { id: c.id, name: c.name, type: ChannelTypes.PublicThread, parentId: CHANNELS[0].id }
            : { id: c.id, name: c.name },
        ),
        members: members.map((m) => ({ user: { id: m.id, username: m.username, global_name: m.name } })),
      },
    ],
  });
  seed(emu, members, total);
  const client = new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent],
    ...emu.clientOptions(),
  });
  const path = join(ctx.workDir, 'import.db');
  const memory = createMemory(
    {
      storage: `sqlite://${path}`,
      llm: 'heuristic',
      workers: { enabled: false },
      access: { requireAudience: false },
      // The whole history waits for extraction at once (the default 10,000 would pause the import).
      observe: { maxQueueDepthPerGuild: 100_000 },
    },
    { store: createSqliteStore({ path }) },
  );
  let llmCalls = 0;
  let batches = 0;
  memory.events.on('BatchCompleted', (e) => {
    llmCalls += e.llmCalls;
    batches++;
  });
  try {
    const ready = once(client, Events.ClientReady);
    await client.login(emu.token);
    await ready;
    const guild = client.guilds.cache.get(GUILD);
    if (!guild) throw new Error('the emulated guild is not cached');
    await memory.start();
    const options = { memory, guild, maxRequestsPerSecond: Number.POSITIVE_INFINITY };

    const t0 = performance.now();
    const first = await importChannelHistory(options);
    const importSeconds = (performance.now() - t0) / 1000;
    const t1 = performance.now();
    const again = await importChannelHistory(options);
    const rerunMs = performance.now() - t1;

    const t2 = performance.now();
    for (let i = 0; i < 10_000; i++) if ((await memory.flush({ report: true })).batches === 0) break;
    const extractionSeconds = (performance.now() - t2) / 1000;
    const perSecond = first.stored / importSeconds;
    const callsPer1000 = first.stored > 0 ? (llmCalls / first.stored) * 1000 : null;
    const stats = await memory.stats({ guildId: GUILD });
    return {
      title: `History import: ${total.toLocaleString('en-US')} messages from the Discord emulator into SQLite`,
      parameters: {
        messages: total,
        channels: CHANNELS.length,
        members: members.length,
        maxRequestsPerSecond: 'unlimited',
        llm: 'heuristic',
      },
      results: {
        fetched: first.fetched,
        stored: first.stored,
        skipped: first.skipped,
        requests: first.requests,
        importSeconds: round(importSeconds),
        messagesPerSecond: round(perSecond),
        rerun: { fetched: again.fetched, stored: again.stored, requests: again.requests, ms: round(rerunMs) },
        extraction: {
          batches,
          llmCalls,
          seconds: round(extractionSeconds),
          callsPer1000: round(callsPer1000 ?? 0),
        },
        activeFacts: stats.activeFacts,
        pendingAfterExtraction: stats.pending,
      },
      targets: [
        target(
          'history-import-throughput',
          'history import into SQLite, messages stored per second (emulator, request ceiling off)',
          '>=',
          1_000,
          'msg/s',
          perSecond,
        ),
        target(
          'history-import-llm-calls',
          'extraction calls per 1,000 imported messages (heuristic extractor, afterwards)',
          '<=',
          100,
          'calls',
          callsPer1000,
        ),
      ],
      notes: [
        `A second run sent ${again.requests} requests (the channel and thread listings, one page per channel), read ${again.fetched} and stored ${again.stored} messages in ${round(rerunMs)} ms: the cursors make a re-run cheap.`,
        'At the default ceiling (5 requests per second, 100 messages each) an import is bound at 500 msg/s; discord.js also follows Discord’s own rate limits.',
      ],
    };
  } finally {
    await client.destroy();
    await emu.close();
    await memory.close({ drain: false });
  }
};
