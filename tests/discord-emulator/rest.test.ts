import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ids, startTestEmulator } from './fixtures.js';
import { type ApiCommandData, type DiscordEmulator, opt } from './index.js';

describe('discord emulator: REST protocol details', () => {
  let emu: DiscordEmulator;
  const call = async (method: string, path: string, body?: unknown, auth = true) => {
    const headers = new Headers();
    if (auth) headers.set('authorization', `Bot ${emu.token}`);
    if (body !== undefined) headers.set('content-type', 'application/json');
    const init: RequestInit = { method, headers };
    if (body !== undefined) init.body = JSON.stringify(body);
    const res = await fetch(`${emu.restUrl}/v10${path}`, init);
    const text = await res.text();
    return { status: res.status, json: text ? (JSON.parse(text) as unknown) : undefined };
  };

  beforeEach(async () => {
    emu = await startTestEmulator();
  });

  afterEach(async () => {
    await emu.close();
  });

  it('answers unknown routes, bad auth and unknown resources with Discord JSON errors', async () => {
    expect(await call('GET', '/nope/123')).toEqual({
      status: 404,
      json: { message: '404: Not Found', code: 0 },
    });
    expect(await call('GET', '/users/@me', undefined, false)).toEqual({
      status: 401,
      json: { message: '401: Unauthorized', code: 0 },
    });
    expect(await call('GET', '/channels/1')).toEqual({
      status: 404,
      json: { message: 'Unknown Channel', code: 10003 },
    });
    expect(await call('GET', `/guilds/${ids.guild}/members/42`)).toEqual({
      status: 404,
      json: { message: 'Unknown Member', code: 10007 },
    });
    expect((await call('DELETE', '/gateway/bot')).status).toBe(405);
    expect((await call('POST', `/channels/${ids.general}/messages`, { content: '' })).json).toEqual({
      message: 'Cannot send an empty message',
      code: 50006,
    });
    expect(
      (await call('POST', `/channels/${ids.general}/messages`, { content: 'x'.repeat(2001) })).json,
    ).toMatchObject({ code: 50035 });
    expect(emu.requests.map((r) => r.status)).toEqual([404, 401, 404, 404, 405, 400, 400]);
    expect(emu.requests[0]?.path).toBe('/nope/123');
  });

  it('pages guild members by limit/after and channel messages by before/after', async () => {
    const page1 = (await call('GET', `/guilds/${ids.guild}/members?limit=2`)).json as {
      user: { id: string };
    }[];
    const after = page1[1]?.user.id ?? '';
    const page2 = (await call('GET', `/guilds/${ids.guild}/members?limit=2&after=${after}`)).json as {
      user: { id: string };
    }[];
    const all = [...page1, ...page2].map((m) => m.user.id);
    expect(all).toEqual(
      [ids.bot, ids.alice, ids.bob, ids.carol].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)),
    );
    expect(((await call('GET', `/guilds/${ids.guild}/members`)).json as unknown[]).length).toBe(1);

    const sent = ['one', 'two', 'three'].map((content) =>
      emu.sendMessage({ channelId: ids.general, authorId: ids.bob, content }),
    );
    const latest = (await call('GET', `/channels/${ids.general}/messages?limit=2`)).json as {
      content: string;
    }[];
    const older = (await call('GET', `/channels/${ids.general}/messages?before=${sent[1]?.id}`)).json as {
      content: string;
    }[];
    const newer = (await call('GET', `/channels/${ids.general}/messages?after=${sent[0]?.id}`)).json as {
      content: string;
    }[];
    expect(latest.map((m) => m.content)).toEqual(['three', 'two']);
    expect(older.map((m) => m.content)).toEqual(['one']);
    expect(newer.map((m) => m.content)).toEqual(['three', 'two']);
  });

  it('rejects a second interaction acknowledgement and followups before acknowledgement', async () => {
    const itx = emu.invokeCommand({ channelId: ids.general, userId: ids.alice, name: 'ping' });
    const callback = `/interactions/${itx.id}/${itx.token}/callback`;
    const followup = `/webhooks/${emu.applicationId}/${itx.token}`;

    expect((await call('POST', followup, { content: 'too early' }, false)).json).toEqual({
      message: 'Unknown Webhook',
      code: 10015,
    });
    expect((await call('POST', callback, { type: 4, data: { content: 'pong' } }, false)).status).toBe(204);
    expect((await call('POST', callback, { type: 4, data: { content: 'again' } }, false)).json).toEqual({
      message: 'Interaction has already been acknowledged.',
      code: 40060,
    });
    expect((await call('POST', `/interactions/${itx.id}/wrong/callback`, { type: 4 }, false)).status).toBe(
      404,
    );
    const original = await call('GET', `${followup}/messages/@original`, undefined, false);
    expect(original.json).toMatchObject({
      content: 'pong',
      webhook_id: emu.applicationId,
      interaction_metadata: { id: itx.id },
    });
    expect(itx.callback?.data?.content).toBe('pong');
  });

  it('dispatches typed option values with resolved data even without a registered command', async () => {
    const itx = emu.invokeCommand({
      channelId: ids.general,
      userId: ids.alice,
      name: 'import',
      subcommandGroup: 'data',
      subcommand: 'file',
      options: {
        file: opt.attachment({ name: 'm.json', data: '{"a":1}' }),
        who: opt.user(ids.bob),
        where: opt.channel(ids.thread),
        ratio: 0.5,
        dry: true,
      },
    });
    const data = itx.payload.data as ApiCommandData;
    const group = data.options[0];
    const leaf = group?.options?.[0];
    expect([group?.name, group?.type, leaf?.name, leaf?.type]).toEqual(['data', 2, 'file', 1]);
    expect(leaf?.options?.map((o) => [o.name, o.type])).toEqual([
      ['file', 11],
      ['who', 6],
      ['where', 7],
      ['ratio', 10],
      ['dry', 5],
    ]);
    expect(Object.keys(data.resolved?.users ?? {})).toEqual([ids.bob]);
    expect(Object.keys(data.resolved?.members ?? {})).toEqual([ids.bob]);
    expect(Object.keys(data.resolved?.channels ?? {})).toEqual([ids.thread]);
    const url = Object.values(data.resolved?.attachments ?? {})[0]?.url ?? '';
    expect(() =>
      emu.sendMessage({ guildId: ids.bot, channelId: ids.general, authorId: ids.bob, content: 'x' }),
    ).toThrow(/belongs to guild/);
    expect(() =>
      emu.invokeCommand({ channelId: ids.general, userId: ids.bob, name: 'ping', guildId: ids.alice }),
    ).toThrow(/belongs to guild/);
    expect(await (await fetch(url)).text()).toBe('{"a":1}');
  });
});
