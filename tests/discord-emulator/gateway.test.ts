import { ChannelType, Client, Events, GatewayIntentBits, type Message, Status } from 'discord.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ClientPool, defaultIntents, ids, nextEvent, startTestEmulator } from './fixtures.js';
import { type DiscordEmulator, GatewayCloseCode, GatewayIntents, GatewayOp } from './index.js';

describe('discord emulator: gateway with a real discord.js client', () => {
  let emu: DiscordEmulator;
  const pool = new ClientPool();

  beforeEach(async () => {
    emu = await startTestEmulator();
  });

  afterEach(async () => {
    await pool.destroyAll();
    await emu.close();
  });

  it('logs in, emits ClientReady and caches the guild with channels, roles and members', async () => {
    const client = await pool.connect(emu);

    expect(client.user.id).toBe(ids.bot);
    expect(client.user.bot).toBe(true);
    expect(client.application.id).toBe(ids.bot);
    const guild = client.guilds.cache.get(ids.guild);
    expect(guild?.name).toBe('Permafrost Test Guild');
    expect(guild?.ownerId).toBe(ids.alice);
    expect(guild?.channels.cache.get(ids.general)?.type).toBe(ChannelType.GuildText);
    expect(guild?.channels.cache.get(ids.general)?.parentId).toBe(ids.category);
    const thread = client.channels.cache.get(ids.thread);
    expect(thread?.isThread() && thread.parentId).toBe(ids.general);
    expect(guild?.roles.everyone.id).toBe(ids.guild);
    expect(guild?.roles.cache.get(ids.modRole)?.name).toBe('mods');
    const alice = guild?.members.cache.get(ids.alice);
    expect(alice?.nickname).toBe('Ally');
    expect(alice?.displayName).toBe('Ally');
    expect(alice?.user.globalName).toBe('Alice A.');
    expect(alice?.roles.cache.has(ids.modRole)).toBe(true);
    expect(guild?.members.cache.get(ids.bob)?.displayName).toBe('Bob');
    expect(guild?.members.cache.has(ids.bot)).toBe(true);
    expect(guild?.memberCount).toBe(4);

    const [session] = await emu.waitForIdentify(1);
    expect(session?.connected).toBe(true);
    expect(session?.shard).toEqual([0, 1]);
    expect(session?.url).toBe('/gateway?v=10&encoding=json');
    const expectedIntents =
      GatewayIntentBits.Guilds |
      GatewayIntentBits.GuildMessages |
      GatewayIntentBits.MessageContent |
      GatewayIntentBits.GuildMembers;
    expect(session?.intents).toBe(expectedIntents);
    const identify = emu.gatewayFrames.find((f) => f.op === GatewayOp.Identify);
    expect(identify?.d).toMatchObject({
      token: emu.token,
      intents: expectedIntents,
      compress: false,
      shard: [0, 1],
    });
    expect(emu.requestsTo('GET', '/gateway/bot')).toHaveLength(1);
    expect(emu.errors).toEqual([]);
  });

  it('acknowledges heartbeats with op 11', async () => {
    await emu.close();
    emu = await startTestEmulator({ heartbeatIntervalMs: 25 });
    const client = await pool.connect(emu);

    await vi.waitFor(() =>
      expect(emu.gatewayFrames.filter((f) => f.op === GatewayOp.Heartbeat).length).toBeGreaterThanOrEqual(2),
    );
    await vi.waitFor(() => expect(client.ws.ping).toBeGreaterThanOrEqual(0));
    // A heartbeat carries the last sequence number seen, or null before the first dispatch
    // (discord.js may beat before READY arrives).
    const beats = emu.gatewayFrames.filter((f) => f.op === GatewayOp.Heartbeat);
    for (const beat of beats) expect(beat.d === null || typeof beat.d === 'number').toBe(true);
    await vi.waitFor(() =>
      expect(emu.gatewayFrames.some((f) => f.op === GatewayOp.Heartbeat && typeof f.d === 'number')).toBe(
        true,
      ),
    );
  });

  it('resumes after a dropped connection and replays missed events', async () => {
    const client = await pool.connect(emu);
    const [before] = await emu.waitForIdentify(1);
    emu.disconnect();
    await vi.waitFor(() => expect(emu.sessions()[0]?.connected).toBe(false));
    const missed = emu.sendMessage({
      channelId: ids.general,
      authorId: ids.bob,
      content: 'sent while offline',
    });
    const [replayed] = await nextEvent<[Message]>(client, Events.MessageCreate, (m) => m.id === missed.id);

    expect(replayed.content).toBe('sent while offline');
    const [after] = emu.sessions();
    expect(after?.sessionId).toBe(before?.sessionId);
    expect(after?.resumes).toBe(1);
    expect(after?.url).toBe('/gateway/resume?v=10&encoding=json');
    expect(emu.gatewayFrames.filter((f) => f.op === GatewayOp.Identify)).toHaveLength(1);
    expect(emu.gatewayFrames.filter((f) => f.op === GatewayOp.Resume)).toHaveLength(1);
  });

  it('answers member requests (op 8) with GUILD_MEMBERS_CHUNK', async () => {
    const client = await pool.connect(emu);
    const guild = client.guilds.cache.get(ids.guild);
    const all = await guild?.members.fetch();
    const queried = await guild?.members.fetch({ query: 'AL', limit: 10 });

    expect([...(all?.keys() ?? [])].sort()).toEqual([ids.bot, ids.alice, ids.bob, ids.carol].sort());
    expect([...(queried?.keys() ?? [])]).toEqual([ids.alice]);
    expect(emu.gatewayFrames.filter((f) => f.op === GatewayOp.RequestGuildMembers)).toHaveLength(2);
  });

  it('rejects an invalid token like Discord (REST 401 -> TokenInvalid)', async () => {
    const client = pool.track(new Client({ intents: [GatewayIntentBits.Guilds], ...emu.clientOptions() }));

    await expect(client.login('not-the-token')).rejects.toMatchObject({ code: 'TokenInvalid' });
    expect(emu.requestsTo('GET', '/gateway/bot')[0]?.status).toBe(401);
    expect(emu.sessions()).toEqual([]);
  });

  it('refuses privileged intents the application has not enabled (close 4014)', async () => {
    await emu.close();
    emu = await startTestEmulator({ privilegedIntents: GatewayIntents.GuildMembers });
    const client = pool.track(new Client({ intents: defaultIntents, ...emu.clientOptions() }));

    await expect(client.login(emu.token)).rejects.toThrow('Used disallowed intents');
    expect(emu.sessions()).toEqual([]);
  });

  it('closing the emulator under a live client stops it from reconnecting', async () => {
    const client = await pool.connect(emu);
    const disconnected = nextEvent<[{ code: number }]>(client, Events.ShardDisconnect);
    await emu.close();
    const [event] = await disconnected;

    expect(event.code).toBe(GatewayCloseCode.AuthenticationFailed);
    expect(client.ws.shards.first()?.status).toBe(Status.Disconnected);
    emu = await startTestEmulator();
  });
});
