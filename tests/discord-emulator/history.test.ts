import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClientPool, ids, startTestEmulator } from './fixtures.js';
import {
  type ApiMessage,
  ChannelTypes,
  type DiscordEmulator,
  snowflake,
  snowflakeTimestamp,
} from './index.js';

describe('discord emulator: channel history (seeding, paging, threads)', () => {
  let emu: DiscordEmulator;
  const pool = new ClientPool();
  const get = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${emu.restUrl}/v10${path}`, { headers: { authorization: `Bot ${emu.token}` } });
    expect(res.status).toBe(200);
    return (await res.json()) as T;
  };
  const idsOf = (messages: readonly { id: string }[]) => messages.map((m) => m.id);

  beforeEach(async () => {
    emu = await startTestEmulator();
  });

  afterEach(async () => {
    await pool.destroyAll();
    await emu.close();
  });

  it('seeds history in the past without gateway events; ids encode the time and sort with live messages', async () => {
    const live = emu.sendMessage({ channelId: ids.random, authorId: ids.bob, content: 'live one' });
    const start = Date.UTC(2025, 5, 1);
    const seeded = emu.seedHistory(
      ids.random,
      Array.from({ length: 250 }, (_, i) => ({
        authorId: i % 2 === 0 ? ids.alice : ids.bob,
        content: `old ${i}`,
      })),
      { startAt: start, stepMs: 60_000 },
    );
    expect(seeded).toHaveLength(250);
    expect(snowflakeTimestamp(seeded[0]?.id ?? '')).toBe(start);
    expect(seeded[3]?.timestamp).toBe(new Date(start + 3 * 60_000).toISOString());
    // Oldest first in the channel, the live message (posted now) last.
    expect(idsOf(emu.channelMessages(ids.random))).toEqual([...idsOf(seeded), live.id]);
    expect(emu.channel(ids.random)?.last_message_id).toBe(live.id);
    // A reply in the history points at an earlier seeded message.
    const [reply] = emu.seedHistory(ids.random, [
      { authorId: ids.carol, content: 'answer', replyTo: seeded[0]?.id ?? '', at: start + 1 },
    ]);
    expect(reply?.message_reference?.message_id).toBe(seeded[0]?.id);
    expect(idsOf(emu.channelMessages(ids.random))[1]).toBe(reply?.id);
    // Another channel seeded over the same minutes gets ids of its own.
    const other = emu.seedHistory(ids.general, [{ authorId: ids.bob, content: 'same time' }], {
      startAt: start,
    });
    expect(snowflakeTimestamp(other[0]?.id ?? '')).toBe(start);
    expect(other[0]?.id).not.toBe(seeded[0]?.id);
    expect(emu.channelMessages(ids.random)).toHaveLength(252);
    expect(idsOf(emu.channelMessages(ids.general))).toEqual(idsOf(other));
  });

  it('pages newest first by before / after / around, like Discord, and answers as REST (no member, no guild_id)', async () => {
    const seeded = emu.seedHistory(
      ids.random,
      Array.from({ length: 230 }, (_, i) => ({ authorId: ids.alice, content: `m${i}` })),
    );
    const all = idsOf(seeded);
    const newest = [...all].reverse();
    const page1 = await get<ApiMessage[]>(`/channels/${ids.random}/messages?limit=100`);
    expect(idsOf(page1)).toEqual(newest.slice(0, 100));
    const page2 = await get<ApiMessage[]>(
      `/channels/${ids.random}/messages?limit=100&before=${page1[99]?.id}`,
    );
    expect(idsOf(page2)).toEqual(newest.slice(100, 200));
    const page3 = await get<ApiMessage[]>(
      `/channels/${ids.random}/messages?limit=100&before=${page2[99]?.id}`,
    );
    expect(idsOf(page3)).toEqual(newest.slice(200));
    expect(await get(`/channels/${ids.random}/messages?before=${all[0]}`)).toEqual([]);
    // `before` need not be a message id: any snowflake splits the history.
    expect(idsOf(await get(`/channels/${ids.random}/messages?limit=2&before=${snowflake()}`))).toEqual(
      newest.slice(0, 2),
    );
    expect(idsOf(await get(`/channels/${ids.random}/messages?limit=3&after=${all[10]}`))).toEqual([
      all[13],
      all[12],
      all[11],
    ]);
    expect(idsOf(await get(`/channels/${ids.random}/messages?limit=4&around=${all[50]}`))).toEqual([
      all[52],
      all[51],
      all[50],
      all[49],
    ]);
    expect(await get<unknown[]>(`/channels/${ids.random}/messages`)).toHaveLength(50);
    const [first] = page1;
    expect(first).not.toHaveProperty('member');
    expect(first).not.toHaveProperty('guild_id');
    expect(first?.author.id).toBe(ids.alice);
    expect(await get(`/channels/${ids.random}/messages/${all[0]}`)).not.toHaveProperty('member');
    // Stored messages keep the gateway fields (MESSAGE_CREATE still carries them).
    expect(emu.message(all[0] ?? '')?.member).toBeDefined();
  });

  it('lists active threads, archived public and private threads (paged), and channels without threads', async () => {
    const at = (n: number) => new Date(Date.UTC(2025, 0, n)).toISOString();
    const archived = [1, 2, 3].map((n) =>
      emu.createChannel(ids.guild, {
        id: snowflake(),
        name: `old-${n}`,
        type: ChannelTypes.PublicThread,
        parentId: ids.random,
        archived: true,
      }),
    );
    archived.forEach((t, i) => {
      if (t.thread_metadata) t.thread_metadata.archive_timestamp = at(i + 1);
    });
    const secret = emu.createChannel(ids.guild, {
      id: snowflake(),
      name: 'secret',
      type: ChannelTypes.PrivateThread,
      parentId: ids.random,
      archived: true,
    });
    type Listing = { threads: { id: string }[]; members: unknown[]; has_more?: boolean };
    const active = await get<Listing>(`/guilds/${ids.guild}/threads/active`);
    expect(idsOf(active.threads)).toEqual([ids.thread]);
    expect(active).not.toHaveProperty('has_more');
    const first = await get<Listing>(`/channels/${ids.random}/threads/archived/public?limit=2`);
    expect([idsOf(first.threads), first.has_more]).toEqual([[archived[2]?.id, archived[1]?.id], true]);
    const rest = await get<Listing>(
      `/channels/${ids.random}/threads/archived/public?limit=2&before=${at(2)}`,
    );
    expect([idsOf(rest.threads), rest.has_more]).toEqual([[archived[0]?.id], false]);
    const priv = await get<Listing>(`/channels/${ids.random}/threads/archived/private`);
    expect(idsOf(priv.threads)).toEqual([secret.id]);
    const joined = await get<Listing>(`/channels/${ids.random}/users/@me/threads/archived/private`);
    expect(joined.threads).toEqual([]);
    const channels = await get<{ id: string; type: number }[]>(`/guilds/${ids.guild}/channels`);
    expect(channels.some((c) => c.id === ids.thread || c.id === secret.id)).toBe(false);

    // discord.js reads the same listings.
    const client = await pool.connect(emu);
    const parent = await client.channels.fetch(ids.random);
    if (!parent || parent.type !== 0) throw new Error('not a text channel');
    const page = await parent.threads.fetchArchived({ type: 'public', limit: 2 });
    expect([[...page.threads.keys()], page.hasMore]).toEqual([[archived[2]?.id, archived[1]?.id], true]);
    const guild = client.guilds.cache.get(ids.guild);
    expect([...((await guild?.channels.fetchActiveThreads())?.threads.keys() ?? [])]).toEqual([ids.thread]);
  });

  it('discord.js pages a 1,000-message history with messages.fetch({ before, limit: 100 })', async () => {
    const seeded = emu.seedHistory(
      ids.random,
      Array.from({ length: 1_000 }, (_, i) => ({ authorId: i % 3 ? ids.bob : ids.carol, content: `h${i}` })),
    );
    const client = await pool.connect(emu);
    const channel = await client.channels.fetch(ids.random);
    if (!channel?.isTextBased()) throw new Error('not text based');
    const seen: string[] = [];
    let before: string | undefined;
    for (;;) {
      const page = await channel.messages.fetch({ limit: 100, cache: false, ...(before ? { before } : {}) });
      seen.push(...page.keys());
      if (page.size < 100) break;
      before = page.lastKey();
    }
    expect(seen).toEqual(idsOf(seeded).reverse());
  });
});
