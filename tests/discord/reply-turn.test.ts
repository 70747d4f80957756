import { isAddressedTo, promptFromMessage, replyWithCitations } from '@permafrost/discord';
import { Events, type Message } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { waitUntil } from './command-helpers.js';
import { type Harness, ids, startHarness } from './harness.js';

const G = ids.guild;

/** Resolves with the discord.js message the client received for `id`. */
function received(h: Harness, id: string): Promise<Message> {
  return new Promise((resolve) => {
    const listener = (m: Message) => {
      if (m.id !== id) return;
      h.client.off(Events.MessageCreate, listener);
      resolve(m);
    };
    h.client.on(Events.MessageCreate, listener);
  });
}

describe('reply turn helpers', () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it('promptFromMessage: asker, explicit non-bot mentions, the replied-to author, clean text', async () => {
    h = await startHarness();
    const carolSaid = h.emu.sendMessage({
      channelId: ids.general,
      authorId: ids.carol,
      content: 'we should go camping',
    });
    const id = h.emu.sendMessage({
      channelId: ids.general,
      authorId: ids.alice,
      content: `<@${ids.bot}> does <@${ids.bob}> like camping? <@${ids.otherBot}> too`,
      replyTo: carolSaid.id,
    }).id;
    const message = await received(h, id);
    expect(isAddressedTo(message, ids.bot)).toBe(true);
    expect(await promptFromMessage(message, { tokenBudget: 700 })).toEqual({
      guildId: G,
      askerId: ids.alice,
      text: 'does @Bob like camping? @otherbot too',
      mentionedIds: [ids.bob],
      threadParticipantIds: [ids.carol],
      audience: { channelId: ids.general, requesterId: ids.alice },
      tokenBudget: 700,
    });
    const plain = await received(
      h,
      h.emu.sendMessage({ channelId: ids.general, authorId: ids.bob, content: 'no ping here' }).id,
    );
    expect(isAddressedTo(plain, ids.bot)).toBe(false);
  });

  it('a reply turn: promptContext → reply with jump-link citations, split and recorded', async () => {
    h = await startHarness();
    const source = h.emu.sendMessage({
      channelId: ids.general,
      authorId: ids.alice,
      content: 'I live in Oslo',
    });
    await waitUntil(async () => (await h.memory.stats({ guildId: G })).pending === 1);
    await h.memory.flush();
    const ask = h.emu.sendMessage({
      channelId: ids.general,
      authorId: ids.alice,
      content: `<@${ids.bot}> where do I live?`,
    });
    const message = await received(h, ask.id);
    const ctx = await h.memory.promptContext(await promptFromMessage(message));
    const url = `https://discord.com/channels/${G}/${ids.general}/${source.id}`;
    expect(ctx.citations.map((c) => c.url)).toEqual([url]);
    expect(ctx.injectionBlock).toContain('[mem:1]');

    const long = `You live in Oslo [mem:1] and I made up [mem:9] nothing.\n${'More words follow here. '.repeat(120)}`;
    const sent = await replyWithCitations(h.memory, message, long, ctx);
    expect(sent.length).toBeGreaterThanOrEqual(2);
    const posted = sent.map((m) => h.emu.message(m.id));
    expect(posted[0]?.content).toContain(`You live in Oslo [[1]](<${url}>) and I made up nothing.`);
    expect(posted[0]?.message_reference?.message_id).toBe(ask.id);
    for (const m of posted) expect(m?.content.length).toBeLessThanOrEqual(2000);
    const bodies = h.emu.requestsTo('POST', `/channels/${ids.general}/messages`).map((r) => r.body);
    expect(bodies[0]).toMatchObject({ allowed_mentions: { parse: [], replied_user: true } });

    const replies = (
      await h.memory.conversation.threadHistory({ guildId: G, channelId: ids.general })
    ).filter((m) => m.isBot);
    expect(replies.map((m) => m.messageId)).toEqual(sent.map((m) => m.id));
    expect(replies[0]?.replyToMessageId).toBe(ask.id);
  });

  it("citations: 'cite' attributes sentences by similarity; 'none' sends the text as is", async () => {
    h = await startHarness();
    const source = h.emu.sendMessage({
      channelId: ids.general,
      authorId: ids.bob,
      content: 'I play the cello every weekend',
    });
    await waitUntil(async () => (await h.memory.stats({ guildId: G })).pending === 1);
    await h.memory.flush();
    const ask = h.emu.sendMessage({
      channelId: ids.general,
      authorId: ids.bob,
      content: `<@${ids.bot}> what do I play?`,
    });
    const message = await received(h, ask.id);
    const ctx = await h.memory.promptContext(await promptFromMessage(message));
    const [cited] = await replyWithCitations(h.memory, message, 'Bob plays the cello every weekend.', ctx, {
      citations: 'cite',
    });
    expect(h.emu.message(cited?.id ?? '')?.content).toContain(`/${source.id}>)`);
    const [raw] = await replyWithCitations(h.memory, message, 'Plain [mem:1] text', ctx, {
      citations: 'none',
    });
    expect(h.emu.message(raw?.id ?? '')?.content).toBe('Plain [mem:1] text');
  });
});
