import { Events, type Message } from 'discord.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ClientPool, ids, nextEvent, startTestEmulator } from './fixtures.js';
import type { DiscordEmulator } from './index.js';

describe('discord emulator: several bot instances', () => {
  let emu: DiscordEmulator;
  const pool = new ClientPool();

  beforeEach(async () => {
    emu = await startTestEmulator();
  });

  afterEach(async () => {
    await pool.destroyAll();
    await emu.close();
  });

  it('delivers a MESSAGE_CREATE to every session of the same token, and records which instance answered', async () => {
    const [first, second] = await Promise.all([pool.connect(emu), pool.connect(emu)]);
    const sessions = await emu.waitForIdentify(2);
    expect(new Set(sessions.map((s) => s.sessionId)).size).toBe(2);

    const responder = (name: string) => async (message: Message) => {
      if (message.author.bot || !message.mentions.has(message.client.user)) return;
      await message.reply(`${name} answers`);
    };
    first.on(Events.MessageCreate, responder('first'));
    second.on(Events.MessageCreate, responder('second'));
    const gotFirst = nextEvent<[Message]>(first, Events.MessageCreate, (m) => m.author.id === ids.alice);
    const gotSecond = nextEvent<[Message]>(second, Events.MessageCreate, (m) => m.author.id === ids.alice);
    const question = emu.sendMessage({
      channelId: ids.general,
      authorId: ids.alice,
      content: `<@${ids.bot}> hi`,
    });
    const [[a], [b]] = await Promise.all([gotFirst, gotSecond]);

    expect(a.id).toBe(question.id);
    expect(b.id).toBe(question.id);
    await vi.waitFor(() => expect(emu.sentMessages(ids.general)).toHaveLength(2));
    expect(
      emu
        .sentMessages(ids.general)
        .map((m) => m.content)
        .sort(),
    ).toEqual(['first answers', 'second answers']);
    expect(emu.sentMessages().every((m) => m.message_reference?.message_id === question.id)).toBe(true);
  });

  it('drops sessions when clients are destroyed and closes promptly', async () => {
    const [first, second] = await Promise.all([pool.connect(emu), pool.connect(emu)]);
    await first.destroy();
    await vi.waitFor(() => expect(emu.sessions()).toHaveLength(1));
    await second.destroy();
    await vi.waitFor(() => expect(emu.sessions()).toEqual([]));

    const started = Date.now();
    await emu.close();
    expect(Date.now() - started).toBeLessThan(1_000);
    emu = await startTestEmulator();
  });
});
