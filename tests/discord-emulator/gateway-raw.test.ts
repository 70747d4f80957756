import { once } from 'node:events';
import { constants, inflateSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ids, startTestEmulator } from './fixtures.js';
import {
  type DiscordEmulator,
  GatewayCloseCode,
  GatewayIntents,
  GatewayOp,
  type GatewayPayload,
} from './index.js';

/** A bare WebSocket client collecting (optionally zlib-stream compressed) gateway payloads. */
class RawGateway {
  readonly ws: WebSocket;
  readonly payloads: GatewayPayload[] = [];
  readonly #compressed: Buffer[] = [];
  #decoded = 0;

  constructor(url: string) {
    this.ws = new WebSocket(url);
    this.ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (!isBinary) {
        this.payloads.push(JSON.parse(data.toString('utf8')) as GatewayPayload);
        return;
      }
      // zlib-stream: one shared context; every frame ends with a sync flush (00 00 ff ff).
      expect(data.subarray(-4).toString('hex')).toBe('0000ffff');
      this.#compressed.push(data);
      const text = inflateSync(Buffer.concat(this.#compressed), {
        finishFlush: constants.Z_SYNC_FLUSH,
      }).toString('utf8');
      this.payloads.push(JSON.parse(text.slice(this.#decoded)) as GatewayPayload);
      this.#decoded = text.length;
    });
  }

  send(op: number, d: unknown): void {
    this.ws.send(JSON.stringify({ op, d }));
  }

  async waitFor(predicate: (p: GatewayPayload) => boolean): Promise<GatewayPayload> {
    for (let i = 0; i < 200; i++) {
      const found = this.payloads.find(predicate);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    throw new Error('payload not received');
  }

  async closeCode(): Promise<number> {
    const [code] = (await once(this.ws, 'close')) as [number];
    return code;
  }
}

describe('discord emulator: raw gateway protocol', () => {
  let emu: DiscordEmulator;
  const sockets: RawGateway[] = [];
  const open = (query: string): RawGateway => {
    const raw = new RawGateway(`${emu.gatewayUrl}?${query}`);
    sockets.push(raw);
    return raw;
  };
  const identify = { token: '', intents: GatewayIntents.Guilds, properties: { os: 'linux' } };

  beforeEach(async () => {
    emu = await startTestEmulator();
    identify.token = emu.token;
  });

  afterEach(async () => {
    for (const raw of sockets.splice(0)) raw.ws.terminate();
    await emu.close();
  });

  it('speaks zlib-stream when asked, with increasing sequence numbers', async () => {
    const raw = open('v=10&encoding=json&compress=zlib-stream');
    const hello = await raw.waitFor((p) => p.op === GatewayOp.Hello);
    expect(hello.d).toEqual({ heartbeat_interval: 41_250 });
    raw.send(GatewayOp.Identify, identify);
    const guild = await raw.waitFor((p) => p.t === 'GUILD_CREATE');
    const ready = await raw.waitFor((p) => p.t === 'READY');
    raw.send(GatewayOp.Heartbeat, guild.s);
    await raw.waitFor((p) => p.op === GatewayOp.HeartbeatAck);

    expect([ready.s, guild.s]).toEqual([1, 2]);
    expect(ready.d).toMatchObject({
      v: 10,
      user: { id: ids.bot, bot: true },
      guilds: [{ id: ids.guild, unavailable: true }],
      application: { id: ids.bot },
      resume_gateway_url: `${emu.gatewayUrl}/resume`,
    });
    expect((guild.d as { id: string; members: unknown[] }).members).toHaveLength(4);
  });

  it('closes with Discord close codes for bad versions, tokens, opcodes and double identify', async () => {
    expect(await open('v=9&encoding=json').closeCode()).toBe(GatewayCloseCode.InvalidAPIVersion);

    const badToken = open('v=10&encoding=json');
    await badToken.waitFor((p) => p.op === GatewayOp.Hello);
    badToken.send(GatewayOp.Identify, { ...identify, token: 'wrong' });
    expect(await badToken.closeCode()).toBe(GatewayCloseCode.AuthenticationFailed);

    const early = open('v=10&encoding=json');
    await early.waitFor((p) => p.op === GatewayOp.Hello);
    early.send(GatewayOp.RequestGuildMembers, { guild_id: ids.guild, query: '', limit: 0 });
    expect(await early.closeCode()).toBe(GatewayCloseCode.NotAuthenticated);

    const twice = open('v=10&encoding=json');
    await twice.waitFor((p) => p.op === GatewayOp.Hello);
    twice.send(GatewayOp.Identify, identify);
    await twice.waitFor((p) => p.t === 'READY');
    twice.send(GatewayOp.Identify, identify);
    expect(await twice.closeCode()).toBe(GatewayCloseCode.AlreadyAuthenticated);

    const unknown = open('v=10&encoding=json');
    await unknown.waitFor((p) => p.op === GatewayOp.Hello);
    unknown.send(99, null);
    expect(await unknown.closeCode()).toBe(GatewayCloseCode.UnknownOpcode);
  });

  it('answers RESUME of an unknown session with INVALID_SESSION and gates events by intents', async () => {
    const stale = open('v=10&encoding=json');
    await stale.waitFor((p) => p.op === GatewayOp.Hello);
    stale.send(GatewayOp.Resume, { token: emu.token, session_id: 'nope', seq: 1 });
    expect((await stale.waitFor((p) => p.op === GatewayOp.InvalidSession)).d).toBe(false);

    const guildsOnly = open('v=10&encoding=json');
    await guildsOnly.waitFor((p) => p.op === GatewayOp.Hello);
    guildsOnly.send(GatewayOp.Identify, identify);
    await guildsOnly.waitFor((p) => p.t === 'GUILD_CREATE');
    emu.sendMessage({ channelId: ids.general, authorId: ids.bob, content: 'not for you' });
    emu.renameMember(ids.guild, ids.bob, 'Bobby');
    const itx = emu.invokeCommand({ channelId: ids.general, userId: ids.bob, name: 'ping' });
    const interaction = await guildsOnly.waitFor((p) => p.t === 'INTERACTION_CREATE');

    expect((interaction.d as { id: string }).id).toBe(itx.id);
    expect(guildsOnly.payloads.map((p) => p.t).filter((t) => t !== null)).toEqual([
      'READY',
      'GUILD_CREATE',
      'INTERACTION_CREATE',
    ]);
  });
});
