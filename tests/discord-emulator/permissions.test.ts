import {
  ChannelType,
  Events,
  type NonThreadGuildBasedChannel,
  OverwriteType,
  PermissionFlagsBits,
  type Role,
  type ThreadChannel,
} from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ClientPool, guildSeed, ids, nextEvent, startTestEmulator } from './fixtures.js';
import { ChannelTypes, type DiscordEmulator, snowflake, VIEW_CHANNEL } from './index.js';

const hidden = snowflake();
const archived = snowflake();
const secret = snowflake();
const VIEW = VIEW_CHANNEL.toString();

/** The fixture guild plus a mods-only channel, a private thread and an archived thread. */
function seed() {
  const guild = guildSeed();
  guild.channels?.push(
    {
      id: hidden,
      name: 'mods-only',
      permissionOverwrites: [
        { id: ids.guild, type: 0, deny: VIEW },
        { id: ids.modRole, type: 0, allow: VIEW },
        { id: ids.carol, type: 1, allow: VIEW },
      ],
    },
    { id: secret, name: 'secret', type: ChannelTypes.PrivateThread, parentId: ids.general },
    { id: archived, name: 'old', type: ChannelTypes.PublicThread, parentId: ids.general, archived: true },
  );
  return guild;
}

describe('discord emulator: permissions, channel and role updates', () => {
  let emu: DiscordEmulator;
  const pool = new ClientPool();

  afterEach(async () => {
    await pool.destroyAll();
    await emu.close();
  });

  it('sends permission overwrites in Discord’s shape, and discord.js computes View Channel from them', async () => {
    emu = await startTestEmulator({ guilds: [seed()] });
    expect(emu.channel(hidden)?.permission_overwrites).toEqual([
      { id: ids.guild, type: 0, allow: '0', deny: VIEW },
      { id: ids.modRole, type: 0, allow: VIEW, deny: '0' },
      { id: ids.carol, type: 1, allow: VIEW, deny: '0' },
    ]);
    const client = await pool.connect(emu);
    const guild = client.guilds.cache.get(ids.guild);
    const channel = guild?.channels.cache.get(hidden);
    if (!guild || !channel || channel.isThread()) throw new Error('mods-only not cached');
    expect(channel.permissionOverwrites.cache.get(ids.carol)?.type).toBe(OverwriteType.Member);
    const sees = (userId: string) =>
      channel.permissionsFor(guild.members.cache.get(userId) ?? userId)?.has(PermissionFlagsBits.ViewChannel);
    expect([sees(ids.alice), sees(ids.bob), sees(ids.carol)]).toEqual([true, false, true]);
    expect(guild.channels.cache.get(secret)?.type).toBe(ChannelType.PrivateThread);
  });

  it('updateChannel dispatches CHANNEL_UPDATE with the new overwrites; updateRole GUILD_ROLE_UPDATE', async () => {
    emu = await startTestEmulator({ guilds: [seed()] });
    const client = await pool.connect(emu);
    const channelUpdate = nextEvent<[unknown, NonThreadGuildBasedChannel]>(client, Events.ChannelUpdate);
    emu.updateChannel(hidden, { permissionOverwrites: [] });
    const [, after] = await channelUpdate;
    expect(after.permissionOverwrites.cache.size).toBe(0);
    expect(() => emu.updateChannel(ids.thread, { permissionOverwrites: [] })).toThrow(/threads/);

    const roleUpdate = nextEvent<[Role, Role]>(client, Events.GuildRoleUpdate);
    emu.updateRole(ids.guild, ids.modRole, { permissions: PermissionFlagsBits.Administrator.toString() });
    const [, role] = await roleUpdate;
    expect(role.permissions.has(PermissionFlagsBits.Administrator)).toBe(true);

    const threadUpdate = nextEvent<[ThreadChannel, ThreadChannel]>(client, Events.ThreadUpdate);
    emu.updateChannel(ids.thread, { archived: true });
    const [, thread] = await threadUpdate;
    expect(thread.archived).toBe(true);
  });

  it('leaves archived threads out of GUILD_CREATE; GET /channels/:id still finds them', async () => {
    emu = await startTestEmulator({ guilds: [seed()] });
    const client = await pool.connect(emu);
    expect(client.channels.cache.has(archived)).toBe(false);
    const fetched = await client.channels.fetch(archived);
    expect(fetched?.isThread() && fetched.archived).toBe(true);
    expect(client.guilds.cache.get(ids.guild)?.channels.cache.has(archived)).toBe(true);
  });

  it('sends a guild above large_threshold without its member list', async () => {
    const guild = guildSeed();
    for (let i = 0; i < 50; i++) guild.members?.push({ user: { id: snowflake(), username: `filler${i}` } });
    emu = await startTestEmulator({ guilds: [guild] });
    const client = await pool.connect(emu);
    const cached = client.guilds.cache.get(ids.guild);
    expect(cached?.large).toBe(true);
    expect(cached?.memberCount).toBe(54);
    expect([...(cached?.members.cache.keys() ?? [])]).toEqual([ids.bot]);
    expect(emu.gatewayFrames.find((f) => f.op === 2)?.d).toMatchObject({ large_threshold: 50 });
  });

  it('holdRequests keeps matching requests unanswered until released', async () => {
    emu = await startTestEmulator({ guilds: [seed()] });
    const client = await pool.connect(emu);
    const hold = emu.holdRequests((r) => r.method === 'GET' && r.path === `/channels/${archived}`);
    let settled = false;
    const fetching = client.channels.fetch(archived).finally(() => {
      settled = true;
    });
    await hold.waitUntilHeld();
    expect(settled).toBe(false); // held: no response can have been sent

    hold.release();
    expect((await fetching)?.id).toBe(archived);
    expect(hold.held).toBe(1);
  });
});
