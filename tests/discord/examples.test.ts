import { join } from 'node:path';
import { importServerHistory, startBot as startOmniBot } from '@permafrost/example-omni-bot';
import { startBot as startPingBot } from '@permafrost/example-ping-reply-bot';
import { afterEach, describe, expect, it } from 'vitest';
import { type DiscordEmulator, startDiscordEmulator } from '../discord-emulator/index.js';
import { waitUntil } from './command-helpers.js';
import { guildSeed, ids, tempDir } from './harness.js';

const G = ids.guild;
const link = (messageId: string) => `https://discord.com/channels/${G}/${ids.general}/${messageId}`;

describe('examples start against the emulator and answer a ping', () => {
  let emu: DiscordEmulator;
  let dir: ReturnType<typeof tempDir>;
  const stops: (() => Promise<void>)[] = [];

  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
    await emu.close();
    dir.cleanup();
  });

  async function start(): Promise<void> {
    dir = tempDir();
    emu = await startDiscordEmulator({
      botUser: { id: ids.bot, username: 'permafrost' },
      guilds: [guildSeed()],
    });
  }

  const repliesTo = (id: string) =>
    emu.sentMessages(ids.general).filter((m) => m.message_reference?.message_id === id);

  it('ping-reply-bot answers with what it remembers, citing the source message', async () => {
    await start();
    const bot = await startPingBot({
      token: emu.token,
      clientOptions: emu.clientOptions(),
      dbPath: join(dir.path, 'ping.db'),
    });
    stops.push(() => bot.stop());
    const oslo = emu.sendMessage({
      channelId: ids.general,
      authorId: ids.alice,
      content: 'I live in Oslo these days',
    });
    await waitUntil(
      async () =>
        (await bot.memory.conversation.threadHistory({ guildId: G, channelId: ids.general })).length === 1,
    );
    await bot.memory.flush();

    const ask = emu.sendMessage({
      channelId: ids.general,
      authorId: ids.alice,
      content: `<@${ids.bot}> what do you know about me?`,
    });
    const [reply] = await waitFor(() => repliesTo(ask.id));
    expect(reply?.content).toContain('Oslo');
    expect(reply?.content).toContain(`[[1]](<${link(oslo.id)}>)`);

    const teach = emu.sendMessage({
      channelId: ids.general,
      authorId: ids.bob,
      content: `<@${ids.bot}> remember that I play chess on Sundays`,
    });
    const [noted] = await waitFor(() => repliesTo(teach.id));
    expect(noted?.content).toMatch(/remember that/);
    const facts = await bot.memory.facts.getAll({ guildId: G, subjectId: ids.bob });
    expect(facts.map((f) => f.text).join(' ')).toMatch(/chess/);
    // replyWithCitations records a reply after Discord accepted it: the emulator can show the
    // second reply before the memory has it.
    const botTurns = async () =>
      (await bot.memory.conversation.threadHistory({ guildId: G, channelId: ids.general })).filter(
        (m) => m.isBot,
      );
    await waitUntil(async () => (await botTurns()).length >= 2);
    expect(await botTurns()).toHaveLength(2);
  });

  it('omni-bot registers /memory, answers a ping and a /memory command', async () => {
    await start();
    const bot = await startOmniBot({
      token: emu.token,
      clientOptions: emu.clientOptions(),
      dbPath: join(dir.path, 'omni.db'),
    });
    stops.push(() => bot.stop());
    expect(emu.commands().map((c) => c.name)).toEqual(['memory']);
    emu.sendMessage({ channelId: ids.general, authorId: ids.bob, content: 'I work at a bakery downtown' });
    await waitUntil(
      async () =>
        (await bot.memory.conversation.threadHistory({ guildId: G, channelId: ids.general })).length === 1,
    );
    await bot.memory.flush();
    const ask = emu.sendMessage({
      channelId: ids.general,
      authorId: ids.bob,
      content: `<@${ids.bot}> hey, what do you remember?`,
    });
    const [reply] = await waitFor(() => repliesTo(ask.id));
    expect(reply?.content).toContain('bakery');
    const show = emu.invokeCommand({
      channelId: ids.general,
      userId: ids.bob,
      name: 'memory',
      subcommand: 'show',
    });
    expect((await show.reply()).content).toContain('bakery');
  });

  it('omni-bot imports the history a server already has (importServerHistory), then a run resumes', async () => {
    await start();
    const seeded = emu.seedHistory(
      ids.offTopic,
      Array.from({ length: 230 }, (_, i) => ({
        authorId: i % 2 ? ids.alice : ids.bob,
        content: `old news ${i}`,
      })),
    );
    const options = {
      token: emu.token,
      clientOptions: emu.clientOptions(),
      guildId: G,
      dbPath: join(dir.path, 'omni-import.db'),
    };
    const stop = new AbortController();
    const first = await importServerHistory({
      ...options,
      signal: stop.signal,
      onProgress: (p) => {
        if (p.totals.fetched >= 100) stop.abort();
      },
    });
    expect([first.stopped, first.stored]).toEqual(['aborted', 100]);
    const second = await importServerHistory(options);
    expect([second.stopped, second.stored, second.duplicates]).toEqual([null, 130, 0]);
    // The bot started on that database answers from the imported history.
    const bot = await startOmniBot({ ...options, registerCommands: false });
    stops.push(() => bot.stop());
    const stored = await bot.memory.conversation.threadHistory({
      guildId: G,
      channelId: ids.offTopic,
      limit: 1000,
    });
    expect(stored.map((m) => m.messageId)).toEqual(seeded.map((m) => m.id));
  });

  it('two omni-bot processes on one database answer each ping once', async () => {
    await start();
    const dbPath = join(dir.path, 'omni-shared.db');
    const options = { token: emu.token, clientOptions: emu.clientOptions(), dbPath };
    const first = await startOmniBot({ ...options, instanceId: 'omni-1' });
    stops.push(() => first.stop());
    const second = await startOmniBot({ ...options, instanceId: 'omni-2', registerCommands: false });
    stops.push(() => second.stop());
    const asks = [1, 2, 3].map((n) =>
      emu.sendMessage({ channelId: ids.general, authorId: ids.carol, content: `<@${ids.bot}> ping ${n}` }),
    );
    await waitUntil(() => asks.every((a) => repliesTo(a.id).length > 0));
    await new Promise((r) => setTimeout(r, 200));
    for (const a of asks) expect(repliesTo(a.id)).toHaveLength(1);
    const show = emu.invokeCommand({
      channelId: ids.general,
      userId: ids.carol,
      name: 'memory',
      subcommand: 'show',
    });
    await show.reply();
    await new Promise((r) => setTimeout(r, 200));
    expect(emu.requestsTo('POST', `/interactions/${show.id}/${show.token}/callback`)).toHaveLength(1);
  });
});

async function waitFor<T>(get: () => T[]): Promise<T[]> {
  await waitUntil(() => get().length > 0);
  return get();
}
