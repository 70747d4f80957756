import type { LogEvent, StoredMessage } from '@permafrost/core';
import { GatewayIntentBits, Partials } from 'discord.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { snowflake } from '../discord-emulator/index.js';
import { type Harness, ids, intents, startHarness } from './harness.js';

const G = ids.guild;

async function storedMessages(h: Harness, userId: string): Promise<StoredMessage[]> {
  return [...(await h.memory.admin.exportUser({ guildId: G, userId })).messages];
}

async function waitForStored(h: Harness, userId: string, messageId: string): Promise<StoredMessage> {
  return vi.waitFor(
    async () => {
      const found = (await storedMessages(h, userId)).find((m) => m.messageId === messageId);
      if (!found) throw new Error('not stored yet');
      return found;
    },
    { timeout: 5_000, interval: 20 },
  );
}

describe('setupDiscordMemory: messages', () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it('observes a message with ids, names, user mentions, reply target and creation time', async () => {
    h = await startHarness();
    const first = h.emu.sendMessage({
      channelId: ids.general,
      authorId: ids.bob,
      content: 'I grow tomatoes at home',
    });
    const sent = h.emu.sendMessage({
      channelId: ids.general,
      authorId: ids.alice,
      content: `<@${ids.carol}> and <@&${ids.modRole}> @everyone see what bob said`,
      mentionRoles: [ids.modRole],
      replyTo: first.id,
    });
    const row = await waitForStored(h, ids.alice, sent.id);
    expect(row).toMatchObject({
      messageId: sent.id,
      guildId: G,
      channelId: ids.general,
      authorId: ids.alice,
      authorUsername: 'alice',
      authorDisplayName: 'Ally',
      authorIsBot: false,
      replyToMessageId: first.id,
      threadParentId: null,
      edited: false,
    });
    // users only (the replied-to author is pinged by the reply), never roles or @everyone
    expect([...row.mentionIds].sort()).toEqual([ids.bob, ids.carol].sort());
    expect(row.createdAt.toISOString()).toBe(new Date(sent.timestamp).toISOString());

    const history = await h.memory.conversation.threadHistory({ guildId: G, channelId: ids.general });
    expect(history.map((m) => m.messageId)).toEqual([first.id, sent.id]);
    expect(history[0]).toMatchObject({ authorId: ids.bob, authorName: 'Bob' });
  });

  it('records the parent of a thread and falls back from nickname to global name to username', async () => {
    h = await startHarness();
    const inThread = h.emu.sendMessage({
      channelId: ids.thread,
      authorId: ids.carol,
      content: 'picnic on sunday?',
    });
    const row = await waitForStored(h, ids.carol, inThread.id);
    expect(row).toMatchObject({
      channelId: ids.thread,
      threadParentId: ids.general,
      authorDisplayName: 'carol',
    });
    const bob = h.emu.sendMessage({ channelId: ids.general, authorId: ids.bob, content: 'count me in' });
    expect((await waitForStored(h, ids.bob, bob.id)).authorDisplayName).toBe('Bob');
  });

  it('skips ignored channels (and their threads), ignored roles, other guilds, bots and the bot itself', async () => {
    h = await startHarness({
      setup: { ignoredChannelIds: [ids.offTopic], ignoredRoleIds: [ids.quietRole], guilds: [G] },
    });
    h.emu.sendMessage({ channelId: ids.offTopic, authorId: ids.alice, content: 'ignored channel text' });
    h.emu.sendMessage({ channelId: ids.ignoredThread, authorId: ids.alice, content: 'ignored thread text' });
    h.emu.sendMessage({ channelId: ids.general, authorId: ids.quinn, content: 'quiet member text' });
    h.emu.sendMessage({ channelId: ids.general, authorId: ids.otherBot, content: 'another bot speaking' });
    const channel = await h.client.channels.fetch(ids.general);
    if (channel?.isSendable()) await channel.send('the bot itself talking');
    const last = h.emu.sendMessage({
      channelId: ids.general,
      authorId: ids.alice,
      content: 'this one counts',
    });
    await waitForStored(h, ids.alice, last.id);
    await h.handle.idle();
    const general = await h.memory.conversation.threadHistory({
      guildId: G,
      channelId: ids.general,
      limit: 50,
    });
    expect(general.map((m) => m.content)).toEqual(['this one counts']);
    expect(await h.memory.conversation.threadHistory({ guildId: G, channelId: ids.offTopic })).toEqual([]);
    expect(await h.memory.conversation.threadHistory({ guildId: G, channelId: ids.ignoredThread })).toEqual(
      [],
    );
    expect(await storedMessages(h, ids.quinn)).toEqual([]);
  });

  it('skips every guild outside the allowlist', async () => {
    h = await startHarness({ setup: { guilds: [snowflake()] } });
    h.emu.sendMessage({ channelId: ids.general, authorId: ids.alice, content: 'not in the allowlist' });
    await vi.waitFor(() => expect(h.emu.channelMessages(ids.general)).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 100));
    await h.handle.idle();
    expect(await storedMessages(h, ids.alice)).toEqual([]);
  });

  it('an edit replaces the stored content and is flagged as edited', async () => {
    h = await startHarness();
    const sent = h.emu.sendMessage({
      channelId: ids.general,
      authorId: ids.bob,
      content: 'I am 30 years old',
    });
    await waitForStored(h, ids.bob, sent.id);
    h.emu.editMessage(sent.id, { content: 'I am 31 years old' });
    await vi.waitFor(async () => {
      const [row] = await storedMessages(h, ids.bob);
      expect(row).toMatchObject({ messageId: sent.id, content: 'I am 31 years old', edited: true });
    });
    expect(await storedMessages(h, ids.bob)).toHaveLength(1);
  });

  it('an edit of a message the client never cached is fetched and stored', async () => {
    h = await startHarness({ client: { partials: [Partials.Message] } });
    const sent = h.emu.sendMessage({
      channelId: ids.general,
      authorId: ids.bob,
      content: 'I like chess a lot',
    });
    await waitForStored(h, ids.bob, sent.id);
    const channel = h.client.channels.cache.get(ids.general);
    if (channel?.isTextBased()) channel.messages.cache.delete(sent.id);
    h.emu.editMessage(sent.id, { content: 'I like chess and go' });
    await vi.waitFor(async () =>
      expect((await storedMessages(h, ids.bob))[0]).toMatchObject({
        content: 'I like chess and go',
        edited: true,
      }),
    );
  });
});

describe('setupDiscordMemory: members and lifecycle', () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it('a rename becomes an alias of the same user and their facts stay theirs', async () => {
    h = await startHarness();
    await h.memory.facts.remember({ guildId: G, subjectId: ids.alice, text: 'Alice plays the cello' });
    h.emu.renameMember(G, ids.alice, 'Cellist Ally');
    await vi.waitFor(async () => {
      const user = await h.memory.admin.exportUser({ guildId: G, userId: ids.alice });
      expect(user.aliases.map((a) => a.alias)).toContain('cellist ally');
    });
    const facts = await h.memory.facts.getAll({ guildId: G, subjectId: ids.alice });
    expect(facts.map((f) => f.text)).toEqual(['Alice plays the cello']);
    const sent = h.emu.sendMessage({
      channelId: ids.general,
      authorId: ids.alice,
      content: 'new name, same me',
    });
    expect((await waitForStored(h, ids.alice, sent.id)).authorDisplayName).toBe('Cellist Ally');
  });

  it('on ready registers the bot id and back-fills member aliases page by page', async () => {
    h = await startHarness({ setup: { backfillAliases: true, backfillPageSize: 3 } });
    await vi.waitFor(async () => {
      const { aliases } = await h.memory.admin.exportGuild({ guildId: G });
      const users = new Set(aliases.map((a) => a.userId));
      for (const id of [ids.alice, ids.bob, ids.carol, ids.mo, ids.owen, ids.quinn])
        expect(users).toContain(id);
      expect(users).not.toContain(ids.otherBot);
      expect(users).not.toContain(ids.bot);
    });
    // 8 members (incl. two bots) in pages of 3 → three requests
    expect(h.emu.requestsTo('GET', `/guilds/${G}/members`)).toHaveLength(3);
    const receipt = await h.memory.observe({
      messageId: snowflake(),
      guildId: G,
      channelId: ids.general,
      authorId: ids.bot,
      content: 'a reply the bot wrote earlier',
      createdAt: new Date(),
    });
    expect(receipt.reason).toBe('bot_author');
  });

  it('onMemberLeave purge removes the departed member; keep leaves them', async () => {
    h = await startHarness({ setup: { onMemberLeave: 'purge' } });
    await h.memory.facts.remember({ guildId: G, subjectId: ids.bob, text: 'Bob collects vinyl records' });
    await h.memory.facts.remember({ guildId: G, subjectId: ids.carol, text: 'Carol bakes sourdough bread' });
    h.emu.removeMember(G, ids.bob);
    await vi.waitFor(async () =>
      expect(await h.memory.facts.getAll({ guildId: G, subjectId: ids.bob })).toEqual([]),
    );
    await h.close();

    h = await startHarness();
    await h.memory.facts.remember({ guildId: G, subjectId: ids.carol, text: 'Carol bakes sourdough bread' });
    h.emu.removeMember(G, ids.carol);
    await vi.waitFor(() => expect(h.emu.member(G, ids.carol)).toBeUndefined());
    await new Promise((r) => setTimeout(r, 100));
    await h.handle.idle();
    expect(await h.memory.facts.getAll({ guildId: G, subjectId: ids.carol })).toHaveLength(1);
  });

  it('a failing handler is logged without content and the client keeps working', async () => {
    const events: LogEvent[] = [];
    h = await startHarness({ setup: { logger: (e) => events.push(e) } });
    const real = h.memory.observeMany.bind(h.memory);
    h.memory.observeMany = async () => {
      throw new Error('storage exploded');
    };
    h.emu.sendMessage({ channelId: ids.general, authorId: ids.bob, content: 'secret words here' });
    await vi.waitFor(() => expect(events.map((e) => e.event)).toContain('discord.handler_failed'));
    expect(JSON.stringify(events.map(({ error: _e, ...rest }) => rest))).not.toContain('secret');
    h.memory.observeMany = real;
    const next = h.emu.sendMessage({ channelId: ids.general, authorId: ids.bob, content: 'still listening' });
    await waitForStored(h, ids.bob, next.id);
    expect(h.emu.errors).toEqual([]);
  });

  it('direct messages are observed under dm:<user> only when observeDMs is on', async () => {
    const dm = (content: string) => {
      const id = snowflake();
      h.emu.dispatch('MESSAGE_CREATE', {
        id,
        channel_id: dmChannel,
        channel_type: 1, // DM: lets discord.js create the (partial) DM channel
        author: { id: ids.bob, username: 'bob', global_name: 'Bob', discriminator: '0', avatar: null },
        content,
        timestamp: new Date().toISOString(),
        edited_timestamp: null,
        tts: false,
        mention_everyone: false,
        mentions: [],
        mention_roles: [],
        attachments: [],
        embeds: [],
        pinned: false,
        type: 0,
        flags: 0,
      });
      return id;
    };
    const dmChannel = snowflake();
    const client = { intents: [...intents, GatewayIntentBits.DirectMessages], partials: [Partials.Channel] };
    h = await startHarness({ setup: { observeDMs: true }, client });
    const id = dm('I moved to Lisbon last month');
    await vi.waitFor(async () => {
      const rows = await h.memory.conversation.threadHistory({
        guildId: `dm:${ids.bob}`,
        channelId: dmChannel,
      });
      expect(rows.map((r) => r.messageId)).toEqual([id]);
    });
    await h.close();

    h = await startHarness({ client });
    dm('I moved to Porto last month');
    await new Promise((r) => setTimeout(r, 150));
    await h.handle.idle();
    expect(
      await h.memory.conversation.threadHistory({ guildId: `dm:${ids.bob}`, channelId: dmChannel }),
    ).toEqual([]);
  });
});

describe('setupDiscordMemory: bursts share observeMany calls', () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  async function burst(setup: { observeBatchSize?: number }) {
    h = await startHarness({ setup });
    const spy = vi.spyOn(h.memory, 'observeMany');
    const sent = Array.from({ length: 40 }, (_, i) =>
      h.emu.sendMessage({
        channelId: ids.general,
        authorId: ids.alice,
        content: `burst message number ${i}`,
      }),
    );
    await vi.waitFor(
      async () => {
        if ((await storedMessages(h, ids.alice)).length < sent.length) throw new Error('not all stored yet');
      },
      { timeout: 10_000, interval: 20 },
    );
    await h.handle.idle();
    const calls = spy.mock.calls.map(([events]) => events.map((e) => e.messageId));
    expect(calls.flat()).toEqual(sent.map((m) => m.id));
    return calls.map((c) => c.length);
  }

  it('a burst goes out in fewer calls than messages, in order', async () => {
    const sizes = await burst({});
    expect(sizes.length).toBeLessThan(40);
    expect(Math.max(...sizes)).toBeGreaterThan(1);
  });

  it('observeBatchSize caps the messages per call (1: one call per message)', async () => {
    expect(await burst({ observeBatchSize: 1 })).toEqual(Array(40).fill(1));
  });

  it('refuses an observeBatchSize outside 1–1000', async () => {
    h = await startHarness();
    const { setupDiscordMemory } = await import('@permafrost/discord');
    for (const observeBatchSize of [0, 1001, 2.5])
      expect(() => setupDiscordMemory(h.client, h.memory, { observeBatchSize })).toThrow(
        expect.objectContaining({ code: 'CONFIG_INVALID' }),
      );
  });
});
