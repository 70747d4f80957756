import type { Memory } from '@permafrost/core';
import {
  claimBeforeReply,
  type DiscordMemoryHandle,
  handleMemoryInteraction,
  isAddressedTo,
  memoryCommand,
  replyWithCitations,
  setupDiscordMemory,
} from '@permafrost/discord';
import { type Client, Events } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { type DiscordEmulator, startDiscordEmulator } from '../discord-emulator/index.js';
import { waitUntil } from './command-helpers.js';
import { guildSeed, ids, login, sharedMemories, tempDir } from './harness.js';

interface Instance {
  readonly name: string;
  readonly client: Client<true>;
  readonly memory: Memory;
  readonly handle: DiscordMemoryHandle;
  readonly errors: unknown[];
}

/** One bot process: its own client and memory object, the store shared with the others. */
async function startInstance(emu: DiscordEmulator, name: string, memory: Memory): Promise<Instance> {
  const client = await login(emu);
  const handle = setupDiscordMemory(client, memory);
  const errors: unknown[] = [];
  client.on(Events.MessageCreate, (message) => {
    if (!isAddressedTo(message, client.user.id)) return;
    void (async () => {
      if (!(await claimBeforeReply(memory, message))) return;
      await replyWithCitations(memory, message, `answered by ${name}`, null);
    })().catch((e: unknown) => errors.push(e));
  });
  client.on(Events.InteractionCreate, (interaction) => {
    handleMemoryInteraction(interaction, memory, {
      claimInteractions: true,
      logger: (e) => {
        if (e.level === 'error') errors.push(e);
      },
    }).catch((e: unknown) => errors.push(e));
  });
  return { name, client, memory, handle, errors };
}

describe('several bot processes on one memory store', () => {
  let emu: DiscordEmulator;
  let instances: Instance[] = [];
  let dir: ReturnType<typeof tempDir>;

  afterEach(async () => {
    for (const i of instances) await i.handle.dispose();
    await Promise.all(instances.map((i) => i.client.destroy()));
    await emu.close();
    for (const i of instances) await i.memory.close();
    instances = [];
    dir.cleanup();
  });

  it('answer each mention exactly once and record one bot reply', async () => {
    dir = tempDir();
    emu = await startDiscordEmulator({
      botUser: { id: ids.bot, username: 'permafrost' },
      guilds: [guildSeed()],
    });
    const [a, b] = sharedMemories(dir.path, 2);
    instances = [await startInstance(emu, 'A', a as Memory), await startInstance(emu, 'B', b as Memory)];
    expect(emu.sessions()).toHaveLength(2);

    const asks = Array.from({ length: 6 }, (_, n) =>
      emu.sendMessage({
        channelId: ids.general,
        authorId: ids.alice,
        content: `<@${ids.bot}> question ${n}`,
      }),
    );
    const repliesTo = (id: string) =>
      emu.sentMessages(ids.general).filter((m) => m.message_reference?.message_id === id);
    await waitUntil(() => asks.every((m) => repliesTo(m.id).length >= 1));
    await new Promise((r) => setTimeout(r, 200)); // a late duplicate would arrive by now
    for (const ask of asks) expect(repliesTo(ask.id)).toHaveLength(1);
    const answeredBy = new Set(asks.flatMap((m) => repliesTo(m.id).map((r) => r.content)));
    expect([...answeredBy].every((c) => /^answered by [AB]$/.test(c))).toBe(true);

    const history = await a?.conversation.threadHistory({
      guildId: ids.guild,
      channelId: ids.general,
      limit: 50,
    });
    expect(history?.filter((m) => m.isBot)).toHaveLength(asks.length);
    expect(history?.filter((m) => !m.isBot).map((m) => m.messageId)).toEqual(asks.map((m) => m.id));
    expect(instances.flatMap((i) => i.errors)).toEqual([]);
  });

  it('a /memory command is answered by exactly one process', async () => {
    dir = tempDir();
    emu = await startDiscordEmulator({
      botUser: { id: ids.bot, username: 'permafrost' },
      guilds: [guildSeed()],
    });
    const [a, b] = sharedMemories(dir.path, 2);
    instances = [await startInstance(emu, 'A', a as Memory), await startInstance(emu, 'B', b as Memory)];
    await instances[0]?.client.application.commands.set([memoryCommand()]);
    await a?.facts.remember({ guildId: ids.guild, subjectId: ids.bob, text: 'Bob restores old bicycles' });
    const handle = emu.invokeCommand({
      channelId: ids.general,
      userId: ids.bob,
      name: 'memory',
      subcommand: 'show',
    });
    expect((await handle.reply()).content).toContain('bicycles');
    await new Promise((r) => setTimeout(r, 200));
    const callbacks = emu.requestsTo('POST', `/interactions/${handle.id}/${handle.token}/callback`);
    expect(callbacks.map((r) => r.status)).toEqual([204]);
    expect(instances.flatMap((i) => i.errors)).toEqual([]);
  });
});
