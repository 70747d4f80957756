import { once } from 'node:events';
import type { LogEvent } from '@permafrost/core';
import {
  createDiscordAudiencePolicy,
  type DiscordAudiencePolicy,
  type SourceChannel,
} from '@permafrost/discord';
import { type Client, Events, PermissionFlagsBits } from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ChannelTypes,
  type DiscordEmulator,
  type GuildSeed,
  type OverwriteSeed,
  snowflake,
  startDiscordEmulator,
} from '../discord-emulator/index.js';
import { login } from './harness.js';

const VIEW = PermissionFlagsBits.ViewChannel.toString();

const id = {
  bot: snowflake(),
  guild: snowflake(),
  big: snowflake(),
  mods: snowflake(),
  helpers: snowflake(),
  general: snowflake(),
  modsChannel: snowflake(),
  staff: snowflake(),
  thread: snowflake(),
  privateThread: snowflake(),
  modsThread: snowflake(),
  archived: snowflake(),
  bigMods: snowflake(),
  bigStaff: snowflake(),
  owen: snowflake(),
  mo: snowflake(),
  hal: snowflake(),
  bob: snowflake(),
  stranger: snowflake(),
} as const;

/** #mods: @everyone denied View, Mods allowed. #staff: the same plus Helpers. */
const modsOnly = (guildId: string, modsRole: string): OverwriteSeed[] => [
  { id: guildId, type: 0, deny: VIEW },
  { id: modsRole, type: 0, allow: VIEW },
];
const modsAndHelpers = (guildId: string): OverwriteSeed[] => [
  ...modsOnly(guildId, id.mods),
  { id: id.helpers, type: 0, allow: VIEW },
];

/** A small guild: its whole member list is cached, so decisions look at actual members. */
function smallGuild(): GuildSeed {
  return {
    id: id.guild,
    name: 'Audience',
    ownerId: id.owen,
    roles: [
      { id: id.mods, name: 'Mods' },
      { id: id.helpers, name: 'Helpers' },
    ],
    channels: [
      { id: id.general, name: 'general' },
      { id: id.modsChannel, name: 'mods', permissionOverwrites: modsOnly(id.guild, id.mods) },
      { id: id.staff, name: 'staff', permissionOverwrites: modsAndHelpers(id.guild) },
      { id: id.thread, name: 'plans', type: ChannelTypes.PublicThread, parentId: id.general },
      { id: id.privateThread, name: 'secret', type: ChannelTypes.PrivateThread, parentId: id.general },
      { id: id.modsThread, name: 'cases', type: ChannelTypes.PublicThread, parentId: id.modsChannel },
      { id: id.archived, name: 'old', type: ChannelTypes.PublicThread, parentId: id.general, archived: true },
    ],
    members: [
      { user: { id: id.owen, username: 'owen' } },
      { user: { id: id.mo, username: 'mo' }, roles: [id.mods] },
      { user: { id: id.hal, username: 'hal' }, roles: [id.helpers] },
      { user: { id: id.bob, username: 'bob' } },
    ],
  };
}

/** Over discord.js's large_threshold (50): only the bot's member is cached, decisions go by roles. */
function bigGuild(): GuildSeed {
  const fillers = Array.from({ length: 55 }, (_, i) => ({
    user: { id: snowflake(), username: `member${i}` },
    roles: [id.mods],
  }));
  return {
    id: id.big,
    name: 'Big',
    roles: [
      { id: id.mods, name: 'Mods' },
      { id: id.helpers, name: 'Helpers' },
    ],
    channels: [
      {
        id: id.bigMods,
        name: 'mods',
        permissionOverwrites: [...modsOnly(id.big, id.mods), { id: id.stranger, type: 1, allow: VIEW }],
      },
      {
        id: id.bigStaff,
        name: 'staff',
        permissionOverwrites: [...modsOnly(id.big, id.mods), { id: id.helpers, type: 0, allow: VIEW }],
      },
    ],
    members: fillers,
  };
}

const src = (channelId: string, parentId: string | null = null): SourceChannel => ({ channelId, parentId });

describe('createDiscordAudiencePolicy against a real discord.js client', () => {
  let emu: DiscordEmulator;
  let client: Client<true>;
  let policy: DiscordAudiencePolicy;
  const logs: LogEvent[] = [];

  /** Whether facts learned in `source` may be shown in `channelId` (one read). */
  const allows = async (channelId: string, source: SourceChannel, guildId: string = id.guild) =>
    (await policy.gate({ guildId, audience: { channelId, requesterId: id.bob } })).allows(source);

  /** Waits until the client has processed the dispatch `act` triggers. */
  const after = async (event: Events, act: () => void) => {
    const seen = once(client, event);
    act();
    await seen;
  };

  beforeEach(async () => {
    logs.length = 0;
    emu = await startDiscordEmulator({
      botUser: { id: id.bot, username: 'permafrost' },
      guilds: [smallGuild(), bigGuild()],
    });
    client = await login(emu);
    policy = createDiscordAudiencePolicy(client, { logger: (event) => logs.push(event) });
  });

  afterEach(async () => {
    policy.dispose();
    await client.destroy();
    await emu.close();
  });

  it('keeps #mods facts out of #general, shows them in #mods; #general facts reach #mods and its threads', async () => {
    expect(await allows(id.general, src(id.modsChannel))).toBe(false);
    expect(await allows(id.modsChannel, src(id.modsChannel))).toBe(true);
    expect(await allows(id.modsChannel, src(id.general))).toBe(true);
    expect(await allows(id.thread, src(id.general))).toBe(true);
    expect(await allows(id.privateThread, src(id.general))).toBe(true);
    expect(await allows(id.modsThread, src(id.modsChannel))).toBe(true);
    expect(await allows(id.modsThread, src(id.general))).toBe(true);
  });

  it('shows a thread in its parent only when public; a private thread only in itself', async () => {
    expect(await allows(id.general, src(id.thread, id.general))).toBe(true);
    expect(await allows(id.modsChannel, src(id.modsThread, id.modsChannel))).toBe(true);
    expect(await allows(id.general, src(id.modsThread, id.modsChannel))).toBe(false);
    expect(await allows(id.general, src(id.privateThread, id.general))).toBe(false);
    expect(await allows(id.thread, src(id.privateThread, id.general))).toBe(false);
    expect(await allows(id.modsChannel, src(id.privateThread, id.general))).toBe(false);
    expect(await allows(id.privateThread, src(id.privateThread, id.general))).toBe(true);
  });

  it('shows a channel in a smaller audience it contains, not in a larger one', async () => {
    // #mods viewers (Mo, the owner) all see #staff; Hal (Helpers) sees #staff but not #mods
    expect(await allows(id.modsChannel, src(id.staff))).toBe(true);
    expect(await allows(id.staff, src(id.modsChannel))).toBe(false);
    // #mods ⊂ #general: everyone sees #general
    expect(await allows(id.modsChannel, src(id.general))).toBe(true);
    expect(await allows(id.general, src(id.staff))).toBe(false);
  });

  it('re-decides after CHANNEL_UPDATE makes #mods public', async () => {
    expect(await allows(id.general, src(id.modsChannel))).toBe(false);
    await after(Events.ChannelUpdate, () => emu.updateChannel(id.modsChannel, { permissionOverwrites: [] }));
    expect(await allows(id.general, src(id.modsChannel))).toBe(true);
    expect(await allows(id.general, src(id.modsThread, id.modsChannel))).toBe(true);
    await after(Events.ChannelUpdate, () =>
      emu.updateChannel(id.modsChannel, { permissionOverwrites: modsOnly(id.guild, id.mods) }),
    );
    expect(await allows(id.general, src(id.modsChannel))).toBe(false);
  });

  it('re-decides after GUILD_MEMBER_UPDATE where the decision depends on members', async () => {
    expect(await allows(id.staff, src(id.modsChannel))).toBe(false);
    // Hal becomes a mod: every member who sees #staff now sees #mods
    await after(Events.GuildMemberUpdate, () =>
      emu.updateMember(id.guild, id.hal, { roles: [id.helpers, id.mods] }),
    );
    expect(await allows(id.staff, src(id.modsChannel))).toBe(true);
    await after(Events.GuildMemberUpdate, () => emu.updateMember(id.guild, id.hal, { roles: [id.helpers] }));
    expect(await allows(id.staff, src(id.modsChannel))).toBe(false);
    // a member leaving changes it too
    await after(Events.GuildMemberRemove, () => emu.removeMember(id.guild, id.hal));
    expect(await allows(id.staff, src(id.modsChannel))).toBe(true);
  });

  it('re-decides after GUILD_ROLE_UPDATE (Helpers become administrators)', async () => {
    expect(await allows(id.staff, src(id.modsChannel))).toBe(false);
    await after(Events.GuildRoleUpdate, () =>
      emu.updateRole(id.guild, id.helpers, { permissions: PermissionFlagsBits.Administrator.toString() }),
    );
    expect(await allows(id.staff, src(id.modsChannel))).toBe(true);
  });

  it('without a complete member cache, decides by roles and member overwrites, denying when unsure', async () => {
    const big = client.guilds.cache.get(id.big);
    expect(big && big.members.cache.size < big.memberCount).toBe(true);
    // every actual #staff member is a mod, but a Helpers-only member could exist
    expect(await allows(id.bigStaff, src(id.bigMods), id.big)).toBe(false);
    // #mods also admits an uncached member (any roles): they may not see #staff
    expect(await allows(id.bigMods, src(id.bigStaff), id.big)).toBe(false);
    await after(Events.ChannelUpdate, () =>
      emu.updateChannel(id.bigMods, { permissionOverwrites: modsOnly(id.big, id.mods) }),
    );
    expect(await allows(id.bigMods, src(id.bigStaff), id.big)).toBe(true);
  });

  it('denies unknown channels, and falls back to the own channel when the reply channel is unknown', async () => {
    expect(await allows(id.general, src(snowflake()))).toBe(false);
    const unknownReply = snowflake();
    const gate = await policy.gate({ guildId: id.guild, audience: { channelId: unknownReply } });
    expect([gate.allows(src(id.general)), gate.allows(src(unknownReply))]).toEqual([false, true]);
    const unknownGuild = await policy.gate({ guildId: snowflake(), audience: { channelId: id.general } });
    expect([unknownGuild.allows(src(id.thread)), unknownGuild.allows(src(id.general))]).toEqual([
      false,
      true,
    ]);
    expect(logs.map((e) => [e.event, e.data?.['reason']])).toEqual([
      ['discord.audience_denied_on_error', 'channel_not_found'],
      ['discord.audience_denied_on_error', 'guild_not_found'],
    ]);
  });

  it('denies all but the own channel when the reply channel cannot be fetched in time', async () => {
    const hold = emu.holdRequests((r) => r.method === 'GET' && r.path === `/channels/${id.archived}`);
    const hasty = createDiscordAudiencePolicy(client, { timeoutMs: 25, logger: (event) => logs.push(event) });
    try {
      const gate = await hasty.gate({ guildId: id.guild, audience: { channelId: id.archived } });
      expect([gate.allows(src(id.general)), gate.allows(src(id.archived, id.general))]).toEqual([
        false,
        true,
      ]);
      expect(logs.map((e) => e.data?.['reason'])).toEqual(['timeout']);
      expect(hold.held).toBe(1);
    } finally {
      hasty.dispose();
      hold.release();
    }
    // once fetched, the archived thread is an ordinary thread of #general
    const gate = await policy.gate({ guildId: id.guild, audience: { channelId: id.archived } });
    expect(gate.allows(src(id.general))).toBe(true);
  });

  it('denies an uncached (archived) source thread, then decides it once the policy fetched it', async () => {
    expect(await allows(id.general, src(id.archived, id.general))).toBe(false);
    await emu.waitForRequest((r) => r.method === 'GET' && r.path === `/channels/${id.archived}`);
    await waitFor(() => client.channels.cache.has(id.archived));
    expect(await allows(id.general, src(id.archived, id.general))).toBe(true);
  });

  it('a DM audience sees only its own DM channel', async () => {
    const dm = snowflake();
    const gate = await policy.gate({
      guildId: `dm:${id.bob}`,
      audience: { channelId: dm, requesterId: id.bob },
    });
    expect([gate.allows(src(dm)), gate.allows(src(id.general)), gate.allows(src(snowflake()))]).toEqual([
      true,
      false,
      false,
    ]);
    expect(emu.requests.filter((r) => r.path.includes(dm))).toEqual([]);
  });

  it('always allows publicChannelIds', async () => {
    const open = createDiscordAudiencePolicy(client, { publicChannelIds: [id.modsChannel] });
    try {
      const gate = await open.gate({ guildId: id.guild, audience: { channelId: id.general } });
      expect([gate.allows(src(id.modsChannel)), gate.allows(src(id.staff))]).toEqual([true, false]);
    } finally {
      open.dispose();
    }
  });

  it('denies (and logs ids only) when a decision throws', async () => {
    const guild = client.guilds.cache.get(id.guild);
    const everyone = guild?.roles.cache.get(id.guild);
    if (!guild || !everyone) throw new Error('guild not cached');
    guild.roles.cache.delete(id.guild); // a broken cache: the @everyone role is gone
    try {
      expect(await allows(id.modsChannel, src(id.general))).toBe(false);
      // the reply channel itself and a thread's parent need no lookup
      expect(await allows(id.modsThread, src(id.modsChannel))).toBe(true);
    } finally {
      guild.roles.cache.set(id.guild, everyone);
    }
    expect(logs).toMatchObject([
      {
        event: 'discord.audience_denied_on_error',
        data: { guildId: id.guild, channelId: id.modsChannel, sourceChannelId: id.general },
      },
    ]);
    expect(await allows(id.modsChannel, src(id.general))).toBe(true);
  });

  it('dispose() detaches the policy from the client', async () => {
    const events = [Events.ChannelUpdate, Events.GuildMemberUpdate, Events.GuildRoleDelete] as const;
    const before = events.map((e) => client.listenerCount(e));
    const extra = createDiscordAudiencePolicy(client);
    expect(events.map((e) => client.listenerCount(e))).toEqual(before.map((n) => n + 1));
    extra.dispose();
    expect(events.map((e) => client.listenerCount(e))).toEqual(before);
  });
});

async function waitFor(probe: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
