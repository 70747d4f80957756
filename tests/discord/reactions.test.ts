import type { ReactionCount } from '@permafrost/core';
import { GatewayIntentBits, Partials } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { learn, waitUntil } from './command-helpers.js';
import { type Harness, ids, intents, startHarness } from './harness.js';

const G = ids.guild;
const PARTY = { id: '112233445566778899', name: 'party' };
const PARTY_TEXT = `<:party:${PARTY.id}>`;

/** Reactions wiring (issue #22 §2): real discord.js on the emulator's MESSAGE_REACTION_* dispatches. */
const reactionClient = {
  intents: [...intents, GatewayIntentBits.GuildMessageReactions],
  partials: [Partials.Message, Partials.Reaction, Partials.User],
};

async function countsOf(h: Harness, messageId: string): Promise<readonly ReactionCount[] | undefined> {
  const history = await h.memory.conversation.threadHistory({
    guildId: G,
    channelId: ids.general,
    limit: 100,
  });
  return history.find((m) => m.messageId === messageId)?.reactions;
}

const until = async (h: Harness, messageId: string, expected: readonly ReactionCount[]) => {
  await waitUntil(async () => JSON.stringify(await countsOf(h, messageId)) === JSON.stringify(expected));
  await h.handle.idle();
  expect(await countsOf(h, messageId)).toEqual(expected);
};

describe('setupDiscordMemory: reactions', () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it('records added and removed reactions (Unicode and custom emoji); bots and ignored roles are skipped', async () => {
    h = await startHarness({ client: reactionClient, setup: { ignoredRoleIds: [ids.quietRole] } });
    const [cats] = await learn(h, ids.alice, ['I love cats so much']);
    const id = cats as string;
    h.emu.addReaction({ messageId: id, userId: ids.bob, emoji: '👍' });
    h.emu.addReaction({ messageId: id, userId: ids.carol, emoji: PARTY });
    h.emu.addReaction({ messageId: id, userId: ids.carol, emoji: '👍' });
    h.emu.addReaction({ messageId: id, userId: ids.otherBot, emoji: '👍' });
    h.emu.addReaction({ messageId: id, userId: ids.quinn, emoji: '👍' });
    await until(h, id, [
      { emoji: '👍', count: 2 },
      { emoji: PARTY_TEXT, count: 1 },
    ]);
    // Discord delivering the same event twice changes nothing (idempotent per member and emoji).
    const again = {
      user_id: ids.bob,
      channel_id: ids.general,
      message_id: id,
      guild_id: G,
      emoji: { id: null, name: '👍' },
      burst: false,
      type: 0,
    };
    h.emu.dispatch('MESSAGE_REACTION_ADD', { ...again, member: { user: { id: ids.bob, username: 'bob' } } });
    h.emu.removeReaction({ messageId: id, userId: ids.carol, emoji: '👍' });
    await until(h, id, [
      { emoji: PARTY_TEXT, count: 1 },
      { emoji: '👍', count: 1 },
    ]);
    const exported = await h.memory.admin.exportUser({ guildId: G, userId: ids.carol });
    expect(exported.reactions.map((r) => [r.messageId, r.emoji])).toEqual([[id, PARTY_TEXT]]);
    for (const who of [ids.otherBot, ids.quinn, ids.bot])
      expect((await h.memory.admin.exportUser({ guildId: G, userId: who })).reactions).toEqual([]);
  });

  it('a reaction right after its message, and one on an uncached message (partials), are both stored', async () => {
    h = await startHarness({ client: reactionClient });
    const message = h.emu.sendMessage({
      channelId: ids.general,
      authorId: ids.alice,
      content: 'just got a puppy',
    });
    h.emu.addReaction({ messageId: message.id, userId: ids.bob, emoji: '🐶' });
    await until(h, message.id, [{ emoji: '🐶', count: 1 }]);
    const channel = h.client.channels.cache.get(ids.general);
    if (channel?.isTextBased()) channel.messages.cache.delete(message.id);
    h.emu.addReaction({ messageId: message.id, userId: ids.carol, emoji: '🐶' });
    await until(h, message.id, [{ emoji: '🐶', count: 2 }]);
    // The partial reaction's removal too.
    if (channel?.isTextBased()) channel.messages.cache.delete(message.id);
    h.emu.removeReaction({ messageId: message.id, userId: ids.bob, emoji: '🐶' });
    await until(h, message.id, [{ emoji: '🐶', count: 1 }]);
  });

  it('a moderator removing one emoji, then every reaction, clears them from memory', async () => {
    h = await startHarness({ client: reactionClient });
    const [id] = (await learn(h, ids.alice, ['I finished the marathon'])) as [string];
    for (const userId of [ids.bob, ids.carol]) h.emu.addReaction({ messageId: id, userId, emoji: '🎉' });
    h.emu.addReaction({ messageId: id, userId: ids.bob, emoji: PARTY });
    await until(h, id, [
      { emoji: '🎉', count: 2 },
      { emoji: PARTY_TEXT, count: 1 },
    ]);
    h.emu.clearReactions(id, '🎉');
    await until(h, id, [{ emoji: PARTY_TEXT, count: 1 }]);
    h.emu.clearReactions(id);
    await until(h, id, []);
  });

  it('a reaction is not a statement of the member who reacted', async () => {
    h = await startHarness({ client: reactionClient, config: { llm: 'heuristic' } });
    const [id] = (await learn(h, ids.alice, ['I hate pineapple on pizza'])) as [string];
    h.emu.addReaction({ messageId: id, userId: ids.bob, emoji: '💯' });
    await until(h, id, [{ emoji: '💯', count: 1 }]);
    await h.memory.flush();
    expect((await h.memory.facts.getAll({ guildId: G, subjectId: ids.alice })).length).toBeGreaterThan(0);
    expect(await h.memory.facts.getAll({ guildId: G, subjectId: ids.bob })).toEqual([]);
    const all = (await h.memory.admin.exportGuild({ guildId: G })).facts;
    expect(all.filter((f) => f.attribution.speakerId === ids.bob || f.subjectId === ids.bob)).toEqual([]);
  });

  it('without the GuildMessageReactions intent nothing arrives (the intents a bot needs)', async () => {
    h = await startHarness({ client: { partials: reactionClient.partials } });
    const [id] = (await learn(h, ids.alice, ['hello there'])) as [string];
    expect(h.emu.addReaction({ messageId: id, userId: ids.bob, emoji: '👋' })).toBe(0);
    await h.handle.idle();
    expect(await countsOf(h, id)).toEqual([]);
  });
});
