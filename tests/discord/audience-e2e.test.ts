import { createMemory, type Memory } from '@permafrost/core';
import {
  createDiscordAudiencePolicy,
  type DiscordAudiencePolicy,
  type DiscordMemoryHandle,
  handleMemoryInteraction,
  memoryCommand,
  promptFromMessage,
  setupDiscordMemory,
} from '@permafrost/discord';
import { type Client, Events, type Message, PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type DiscordEmulator, snowflake, startDiscordEmulator } from '../discord-emulator/index.js';
import { login, tempDir } from './harness.js';

/**
 * Issue #23 §3 end to end: discord.js on the emulator, the memory using the Discord audience policy.
 * #mods is private to the Mods role; Mo has the role, Bob does not. What Mo says in #mods reaches
 * replies and `/memory` answers in #mods, never in #general.
 */
const VIEW = PermissionFlagsBits.ViewChannel.toString();
const id = {
  bot: snowflake(),
  guild: snowflake(),
  mods: snowflake(),
  general: snowflake(),
  modsChannel: snowflake(),
  owner: snowflake(),
  mo: snowflake(),
  bob: snowflake(),
};

describe('audiences through discord.js (Discord permission policy)', () => {
  let emu: DiscordEmulator;
  let client: Client<true>;
  let memory: Memory;
  let policy: DiscordAudiencePolicy;
  let handle: DiscordMemoryHandle;
  const dir = tempDir();

  const received = (messageId: string) =>
    vi.waitFor(
      () => {
        const m = client.channels.cache
          .filter((c) => c.isTextBased())
          .map((c) => ('messages' in c ? c.messages.cache.get(messageId) : undefined))
          .find((m) => m !== undefined);
        if (!m) throw new Error('not received yet');
        return m as Message<true>;
      },
      { timeout: 5_000, interval: 20 },
    );

  const ask = async (authorId: string, channelId: string, content: string) => {
    const sent = emu.sendMessage({ channelId, authorId, content: `<@${id.bot}> ${content}` });
    const message = await received(sent.id);
    return memory.promptContext(await promptFromMessage(message));
  };

  beforeAll(async () => {
    emu = await startDiscordEmulator({
      botUser: { id: id.bot, username: 'permafrost' },
      guilds: [
        {
          id: id.guild,
          name: 'Audience e2e',
          ownerId: id.owner,
          roles: [{ id: id.mods, name: 'Mods' }],
          channels: [
            { id: id.general, name: 'general' },
            {
              id: id.modsChannel,
              name: 'mods',
              permissionOverwrites: [
                { id: id.guild, type: 0, deny: VIEW },
                { id: id.mods, type: 0, allow: VIEW },
              ],
            },
          ],
          members: [
            { user: { id: id.owner, username: 'owner' } },
            { user: { id: id.mo, username: 'mo' }, roles: [id.mods] },
            { user: { id: id.bob, username: 'bob' } },
          ],
        },
      ],
    });
    client = await login(emu);
    policy = createDiscordAudiencePolicy(client);
    memory = createMemory(
      { storage: `sqlite://${dir.path}/audience.db`, llm: 'heuristic', workers: { enabled: false } },
      { audiencePolicy: policy },
    );
    handle = setupDiscordMemory(client, memory);
    client.on(Events.InteractionCreate, (interaction) => {
      void handleMemoryInteraction(interaction, memory, { adminRoleIds: [id.mods] });
    });
    await client.application?.commands.set([memoryCommand()]);
    const said = [
      emu.sendMessage({
        channelId: id.modsChannel,
        authorId: id.mo,
        content: 'I work at the hospital as a nurse',
      }),
      emu.sendMessage({ channelId: id.general, authorId: id.mo, content: 'I love hiking in the mountains' }),
    ];
    for (const m of said) await received(m.id);
    await handle.idle();
    await memory.flush();
  }, 60_000);

  afterAll(async () => {
    await handle?.dispose();
    policy?.dispose();
    await memory?.close({ drain: false });
    await client?.destroy();
    await emu?.close();
    dir.cleanup();
  });

  it('a member without the role asking in #general gets nothing from #mods', async () => {
    const ctx = await ask(id.bob, id.general, `what does <@${id.mo}> do for work?`);
    expect(ctx.injectionBlock).toContain('hiking');
    expect(ctx.injectionBlock.toLowerCase()).not.toContain('nurse');
  });

  it('a moderator asking in #mods gets it', async () => {
    const ctx = await ask(id.mo, id.modsChannel, 'what do I do for work?');
    expect(ctx.injectionBlock).toContain('nurse');
    expect(ctx.injectionBlock).toContain('hiking');
  });

  it('/memory show in #general never lists what was learned in #mods', async () => {
    const show = (channelId: string) =>
      emu
        .invokeCommand({
          channelId,
          userId: id.mo,
          name: 'memory',
          subcommand: 'show',
          options: {},
        })
        .reply();
    const inGeneral = await show(id.general);
    expect(inGeneral.content).toContain('hiking');
    expect(inGeneral.content?.toLowerCase()).not.toContain('nurse');
    const inMods = await show(id.modsChannel);
    expect(inMods.content).toContain('nurse');
  });
});
