import {
  AttachmentBuilder,
  Events,
  GatewayIntentBits,
  type GuildMember,
  type Message,
  type PartialGuildMember,
  type TextChannel,
} from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClientPool, ids, nextEvent, startTestEmulator } from './fixtures.js';
import type { DiscordEmulator } from './index.js';

describe('discord emulator: messages and members', () => {
  let emu: DiscordEmulator;
  const pool = new ClientPool();

  beforeEach(async () => {
    emu = await startTestEmulator();
  });

  afterEach(async () => {
    await pool.destroyAll();
    await emu.close();
  });

  it('delivers MESSAGE_CREATE with ids, content, mentions, reply reference and thread parent', async () => {
    const client = await pool.connect(emu);
    const first = emu.sendMessage({
      guildId: ids.guild,
      channelId: ids.general,
      authorId: ids.alice,
      content: 'I like tea',
    });
    const [received] = await nextEvent<[Message]>(client, Events.MessageCreate, (m) => m.id === first.id);

    expect(received.content).toBe('I like tea');
    expect(received.author.id).toBe(ids.alice);
    expect(received.guildId).toBe(ids.guild);
    expect(received.channelId).toBe(ids.general);
    expect(received.member?.displayName).toBe('Ally');
    expect(received.createdTimestamp).toBe(Date.parse(first.timestamp));

    const replyEvent = nextEvent<[Message]>(client, Events.MessageCreate, (m) => m.content.startsWith('hey'));
    const reply = emu.sendMessage({
      channelId: ids.general,
      authorId: ids.bob,
      content: `hey <@${ids.bot}> what does she like?`,
      mentions: [ids.carol],
      replyTo: first.id,
    });
    const [replyMsg] = await replyEvent;
    expect(replyMsg.id).toBe(reply.id);
    expect(replyMsg.reference?.messageId).toBe(first.id);
    expect(replyMsg.mentions.repliedUser?.id).toBe(ids.alice);
    expect(replyMsg.mentions.users.has(ids.bot)).toBe(true);
    expect(replyMsg.mentions.users.has(ids.carol)).toBe(true);
    expect(replyMsg.mentions.has(client.user)).toBe(true);
    expect((await replyMsg.fetchReference()).content).toBe('I like tea');

    const threadEvent = nextEvent<[Message]>(client, Events.MessageCreate, (m) => m.channelId === ids.thread);
    emu.sendMessage({ channelId: ids.thread, authorId: ids.carol, content: 'in a thread' });
    const [threadMsg] = await threadEvent;
    expect(threadMsg.channel.isThread()).toBe(true);
    expect(threadMsg.channel.isThread() && threadMsg.channel.parentId).toBe(ids.general);
    expect(threadMsg.content).toBe('in a thread');
  });

  it('delivers MESSAGE_UPDATE with old and new content', async () => {
    const client = await pool.connect(emu);
    const original = emu.sendMessage({ channelId: ids.general, authorId: ids.bob, content: 'I am 30' });
    await nextEvent<[Message]>(client, Events.MessageCreate, (m) => m.id === original.id);
    const update = nextEvent<[Message, Message]>(client, Events.MessageUpdate);
    const edited = emu.editMessage(original.id, { content: 'I am 31' });
    const [before, after] = await update;

    expect(before.content).toBe('I am 30');
    expect(after.content).toBe('I am 31');
    expect(after.editedTimestamp).toBe(Date.parse(edited.edited_timestamp ?? ''));
  });

  it('delivers MESSAGE_DELETE and MESSAGE_DELETE_BULK with the ids and channel', async () => {
    const client = await pool.connect(emu);
    const sent = ['one', 'two', 'three'].map((content) =>
      emu.sendMessage({ channelId: ids.general, authorId: ids.bob, content }),
    );
    const last = sent[2] as (typeof sent)[number];
    await nextEvent<[Message]>(client, Events.MessageCreate, (m) => m.id === last.id);
    const single = nextEvent<[Message]>(client, Events.MessageDelete);
    emu.deleteMessage(last.id);
    const [deleted] = await single;
    expect([deleted.id, deleted.channelId, deleted.guildId]).toEqual([last.id, ids.general, ids.guild]);
    const bulk = nextEvent<[ReadonlyMap<string, Message>, TextChannel]>(client, Events.MessageBulkDelete);
    emu.deleteMessages(sent.slice(0, 2).map((m) => m.id));
    const [gone, channel] = await bulk;
    expect([...gone.keys()].sort()).toEqual(
      sent
        .slice(0, 2)
        .map((m) => m.id)
        .sort(),
    );
    expect(channel.id).toBe(ids.general);
    expect(emu.message(last.id)).toBeUndefined();
  });

  it('delivers GUILD_MEMBER_UPDATE renames and GUILD_MEMBER_REMOVE', async () => {
    const client = await pool.connect(emu);
    const update = nextEvent<[GuildMember, GuildMember]>(client, Events.GuildMemberUpdate);
    emu.renameMember(ids.guild, ids.bob, 'Robert');
    const [oldMember, newMember] = await update;

    expect(oldMember.nickname).toBeNull();
    expect(newMember.nickname).toBe('Robert');
    expect(newMember.displayName).toBe('Robert');
    expect(emu.member(ids.guild, ids.bob)?.nick).toBe('Robert');

    const removal = nextEvent<[GuildMember | PartialGuildMember]>(client, Events.GuildMemberRemove);
    emu.removeMember(ids.guild, ids.carol);
    const [removed] = await removal;
    expect(removed.id).toBe(ids.carol);
    expect(client.guilds.cache.get(ids.guild)?.members.cache.has(ids.carol)).toBe(false);
  });

  it('withholds content from sessions without MessageContent unless the bot is mentioned', async () => {
    const client = await pool.connect(emu, {
      intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages],
    });
    const plainEvent = nextEvent<[Message]>(client, Events.MessageCreate, (m) => m.author.id === ids.bob);
    emu.sendMessage({ channelId: ids.general, authorId: ids.bob, content: 'secret' });
    const [plain] = await plainEvent;
    const mentionEvent = nextEvent<[Message]>(client, Events.MessageCreate, (m) => m.author.id === ids.carol);
    emu.sendMessage({ channelId: ids.general, authorId: ids.carol, content: `<@${ids.bot}> remember this` });
    const [mentioned] = await mentionEvent;

    expect(plain.content).toBe('');
    expect(mentioned.content).toBe(`<@${ids.bot}> remember this`);
  });

  it('records messages the bot sends (JSON and multipart), typing, and serves channel history', async () => {
    const client = await pool.connect(emu);
    const channel = client.channels.cache.get(ids.general) as TextChannel;
    const prompt = emu.sendMessage({ channelId: ids.general, authorId: ids.alice, content: 'remember me' });
    await channel.sendTyping();
    const sent = await channel.send({ content: 'Noted!', reply: { messageReference: prompt.id } });
    const file = new AttachmentBuilder(Buffer.from('{"facts":1}'), { name: 'memory.json' });
    const withFile = await channel.send({ content: 'export', files: [file] });

    const recorded = await emu.waitForMessage((m) => m.content === 'Noted!');
    expect(recorded.id).toBe(sent.id);
    expect(recorded.author.id).toBe(ids.bot);
    expect(recorded.message_reference?.message_id).toBe(prompt.id);
    expect(recorded.mentions.map((u) => u.id)).toEqual([ids.alice]);
    expect(sent.reference?.messageId).toBe(prompt.id);
    expect(emu.sentMessages(ids.general).map((m) => m.content)).toEqual(['Noted!', 'export']);
    const attachment = withFile.attachments.first();
    expect(attachment?.name).toBe('memory.json');
    expect(emu.attachment(attachment?.id ?? '')?.data.toString()).toBe('{"facts":1}');
    const download = await fetch(attachment?.url ?? '');
    expect(await download.text()).toBe('{"facts":1}');
    expect(emu.requestsTo('POST', `/channels/${ids.general}/typing`)).toHaveLength(1);
    expect(emu.requestsTo('POST', `/channels/${ids.general}/messages`).map((r) => r.files.length)).toEqual([
      0, 1,
    ]);

    const history = await channel.messages.fetch({ limit: 10, cache: false });
    expect([...history.values()].map((m) => m.content)).toEqual(['export', 'Noted!', 'remember me']);
    const bob = await client.guilds.cache.get(ids.guild)?.members.fetch({ user: ids.bob, force: true });
    expect(bob?.user.username).toBe('bob');
    const fetchedChannel = await client.channels.fetch(ids.general, { force: true });
    expect(fetchedChannel?.isTextBased() && 'topic' in fetchedChannel && fetchedChannel.topic).toBe(
      'chit-chat',
    );
    expect(emu.requestsTo('GET', `/channels/${ids.general}`)).toHaveLength(1);
  });
});
