import {
  Events,
  GatewayIntentBits,
  type Message,
  type MessageReaction,
  Partials,
  type TextChannel,
  type User,
} from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClientPool, defaultIntents, ids, nextEvent, startTestEmulator } from './fixtures.js';
import type { DiscordEmulator } from './index.js';

const withReactions = {
  intents: [...defaultIntents, GatewayIntentBits.GuildMessageReactions],
  partials: [Partials.Message, Partials.Reaction, Partials.User],
};

describe('discord emulator: reactions', () => {
  let emu: DiscordEmulator;
  const pool = new ClientPool();

  beforeEach(async () => {
    emu = await startTestEmulator();
  });

  afterEach(async () => {
    await pool.destroyAll();
    await emu.close();
  });

  it('dispatches MESSAGE_REACTION_ADD and _REMOVE in Discord’s shapes; duplicates send nothing', async () => {
    const client = await pool.connect(emu, withReactions);
    const message = emu.sendMessage({
      channelId: ids.general,
      authorId: ids.alice,
      content: 'look at my cat',
    });
    await nextEvent<[Message]>(client, Events.MessageCreate, (m) => m.id === message.id);
    const added = nextEvent<[MessageReaction, User]>(client, Events.MessageReactionAdd);
    expect(emu.addReaction({ messageId: message.id, userId: ids.bob, emoji: '😻' })).toBe(1);
    const [reaction, user] = await added;
    expect([reaction.message.id, reaction.emoji.name, reaction.emoji.id, user.id, reaction.count]).toEqual([
      message.id,
      '😻',
      null,
      ids.bob,
      1,
    ]);
    expect(emu.addReaction({ messageId: message.id, userId: ids.bob, emoji: '😻' })).toBe(0);
    const custom = nextEvent<[MessageReaction]>(
      client,
      Events.MessageReactionAdd,
      (r) => r.emoji.id !== null,
    );
    emu.addReaction({
      messageId: message.id,
      userId: ids.carol,
      emoji: { id: '998877665544332211', name: 'blob', animated: true },
    });
    const [blob] = await custom;
    expect([blob.emoji.name, blob.emoji.id, blob.emoji.animated, blob.emoji.toString()]).toEqual([
      'blob',
      '998877665544332211',
      true,
      '<a:blob:998877665544332211>',
    ]);
    // The message object (REST) lists the counts.
    const fetched = await (client.channels.cache.get(ids.general) as TextChannel).messages.fetch({
      message: message.id,
      force: true,
    });
    expect(fetched.reactions.cache.map((r) => [r.emoji.toString(), r.count])).toEqual([
      ['😻', 1],
      ['<a:blob:998877665544332211>', 1],
    ]);
    const removed = nextEvent<[MessageReaction, User]>(client, Events.MessageReactionRemove);
    expect(emu.removeReaction({ messageId: message.id, userId: ids.bob, emoji: '😻' })).toBe(1);
    const [gone, who] = await removed;
    expect([gone.emoji.name, who.id]).toEqual(['😻', ids.bob]);
    expect(emu.removeReaction({ messageId: message.id, userId: ids.bob, emoji: '😻' })).toBe(0);
  });

  it('dispatches MESSAGE_REACTION_REMOVE_EMOJI and _REMOVE_ALL, and partial reactions on uncached messages', async () => {
    const client = await pool.connect(emu, withReactions);
    const message = emu.sendMessage({ channelId: ids.general, authorId: ids.alice, content: 'vote!' });
    await nextEvent<[Message]>(client, Events.MessageCreate, (m) => m.id === message.id);
    (client.channels.cache.get(ids.general) as TextChannel).messages.cache.delete(message.id);
    const partial = nextEvent<[MessageReaction]>(client, Events.MessageReactionAdd);
    emu.addReaction({ messageId: message.id, userId: ids.bob, emoji: '👍' });
    const [r] = await partial;
    expect([r.partial, r.message.partial, r.message.id]).toEqual([true, true, message.id]);
    emu.addReaction({ messageId: message.id, userId: ids.carol, emoji: '👎' });
    const oneEmoji = nextEvent<[MessageReaction]>(client, Events.MessageReactionRemoveEmoji);
    emu.clearReactions(message.id, '👍');
    expect((await oneEmoji)[0].emoji.name).toBe('👍');
    const all = nextEvent<[Message]>(client, Events.MessageReactionRemoveAll);
    emu.clearReactions(message.id);
    expect((await all)[0].id).toBe(message.id);
    expect(emu.message(message.id)?.reactions).toBeUndefined();
  });

  it('needs the GuildMessageReactions intent', async () => {
    const client = await pool.connect(emu, { partials: withReactions.partials });
    const message = emu.sendMessage({ channelId: ids.general, authorId: ids.alice, content: 'hi' });
    await nextEvent<[Message]>(client, Events.MessageCreate, (m) => m.id === message.id);
    expect(emu.addReaction({ messageId: message.id, userId: ids.bob, emoji: '👋' })).toBe(0);
  });
});
