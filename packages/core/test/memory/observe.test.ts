import { describe, expect, it } from 'vitest';
import { createInMemoryStore, MemoryError } from '../../src/index.js';
import { ALICE, BOB, BOT, CHANNEL, GUILD, harness } from './helpers.js';

const event = (o: Record<string, unknown> = {}) => ({
  messageId: 'm1',
  guildId: GUILD,
  channelId: CHANNEL,
  authorId: ALICE,
  content: 'I live in Omaha and work at a bakery',
  createdAt: '2026-08-24T12:00:00Z',
  authorDisplayName: 'Alice',
  ...o,
});

describe('observe', () => {
  it('accepts a message once and ignores the duplicate', async () => {
    const { memory } = harness();
    expect(await memory.observe(event())).toEqual({ messageId: 'm1', status: 'accepted', reason: null });
    expect(await memory.observe(event())).toEqual({
      messageId: 'm1',
      status: 'ignored',
      reason: 'duplicate',
    });
    expect((await memory.stats({ guildId: GUILD })).pending).toBe(1);
    await memory.close();
  });

  it('an edited message replaces the stored content; an unedited repeat stays a duplicate', async () => {
    const { memory } = harness();
    await memory.observe(event({ content: 'I live in Oslo now' }));
    const edit = await memory.observe(event({ content: 'I live in Bergen now', edited: true }));
    expect(edit).toEqual({ messageId: 'm1', status: 'accepted', reason: null });
    const [row] = await memory.conversation.threadHistory({ guildId: GUILD, channelId: CHANNEL });
    expect(row).toMatchObject({ messageId: 'm1', content: 'I live in Bergen now', edited: true });
    expect((await memory.stats({ guildId: GUILD })).pending).toBe(1);
    await memory.close();
  });

  it('ignores bots (flag or registered id), short content and configured patterns', async () => {
    const { memory } = harness({ observe: { minMessageChars: 5, ignorePatterns: ['^!\\w+'] } });
    memory.registerBotId(BOT);
    expect((await memory.observe(event({ messageId: 'a', authorIsBot: true }))).reason).toBe('bot_author');
    expect((await memory.observe(event({ messageId: 'b', authorId: BOT }))).reason).toBe('bot_author');
    expect((await memory.observe(event({ messageId: 'c', content: ' hey ' }))).reason).toBe('empty_content');
    expect((await memory.observe(event({ messageId: 'd', content: '!play some music' }))).reason).toBe(
      'ignored_pattern',
    );
    expect((await memory.observe(event({ messageId: 'e', content: 'hello' }))).status).toBe('accepted');
    expect((await memory.stats({ guildId: GUILD })).pending).toBe(1);
    await memory.close();
  });

  it('ignores opted-out members and stores nothing of theirs', async () => {
    const { memory } = harness();
    await memory.admin.setOptOut({ guildId: GUILD, userId: ALICE, optedOut: true });
    expect((await memory.observe(event())).reason).toBe('opted_out');
    expect((await memory.stats({ guildId: GUILD })).pending).toBe(0);
    await memory.close();
  });

  it("an opted-out member's message is ignored whatever else observe would decide", async () => {
    // The consent read runs beside the write; its answer still wins over every other decision.
    const { memory } = harness({
      observe: { maxQueueDepthPerGuild: 2, minMessageChars: 5, memberBurst: 10 },
    });
    await memory.observe(event({ messageId: 'kept' }));
    await memory.admin.setOptOut({ guildId: GUILD, userId: ALICE, optedOut: true });
    expect(await memory.observe(event({ messageId: 'bob', authorId: BOB }))).toMatchObject({
      status: 'accepted',
    });
    for (const e of [
      event({ messageId: 'short', content: 'hey' }),
      event({ messageId: 'over-depth' }),
      event({ messageId: 'kept', content: 'I moved to Lima', edited: true }),
    ])
      expect(await memory.observe(e)).toEqual({
        messageId: e.messageId,
        status: 'ignored',
        reason: 'opted_out',
      });
    const history = await memory.conversation.threadHistory({ guildId: GUILD, channelId: CHANNEL });
    // Opting out stops what comes next; the message stored before it keeps its text (no edit applied).
    expect(history.map((m) => [m.messageId, m.content])).toEqual([
      ['bob', event().content],
      ['kept', event().content],
    ]);
    await memory.close();
  });

  it("removes an opted-out member's row that a queue stored without waiting for consent", async () => {
    const store = createInMemoryStore();
    // A queue written before `admitted` existed: it stores at once, whatever the answer.
    const queue = Object.assign(Object.create(store.queue) as typeof store.queue, {
      enqueue: (m: Parameters<typeof store.queue.enqueue>[0], depth: number) => store.queue.enqueue(m, depth),
    });
    const { memory } = harness({}, { store, queue });
    await memory.admin.setOptOut({ guildId: GUILD, userId: ALICE, optedOut: true });
    expect(await memory.observe(event())).toEqual({
      messageId: 'm1',
      status: 'ignored',
      reason: 'opted_out',
    });
    expect(await store.conversation.getMessages(GUILD, ['m1'])).toEqual([]);
    await memory.close();
  });

  it('a failed consent read rejects the message even when the queue answers without waiting for it', async () => {
    const store = createInMemoryStore();
    store.consent.isOptedOut = () =>
      new Promise((_, reject) => setTimeout(() => reject(new MemoryError('STORE_UNAVAILABLE', 'down')), 10));
    // A queue that refuses at once (a full guild) and never looks at `admitted`.
    const queue = Object.assign(Object.create(store.queue) as typeof store.queue, {
      enqueue: async () => 'over_capacity' as const,
    });
    const { memory } = harness({}, { store, queue });
    expect(await memory.observe(event())).toMatchObject({ messageId: 'm1', status: 'rejected' });
    // Let any rejection nobody handled surface (vitest fails the run on one).
    await new Promise((resolve) => setTimeout(resolve, 30));
    await memory.close();
  });

  it('a failed consent read rejects the message and stores nothing', async () => {
    const store = createInMemoryStore();
    const failure = new MemoryError('STORE_UNAVAILABLE', 'consent read failed');
    store.consent.isOptedOut = () => Promise.reject(failure);
    const { memory } = harness({}, { store });
    expect(await memory.observe(event())).toMatchObject({ messageId: 'm1', status: 'rejected' });
    expect(await memory.observe(event({ messageId: 'm2', content: 'x' }))).toMatchObject({
      status: 'rejected',
    });
    expect((await memory.stats({ guildId: GUILD })).pending).toBe(0);
    await memory.close();
  });

  it('rejects past the per-guild queue depth', async () => {
    // One author here: its own share (memberBurst) is set above the guild depth under test.
    const { memory } = harness({ observe: { maxQueueDepthPerGuild: 2, memberBurst: 10 } });
    await memory.observe(event({ messageId: 'a' }));
    await memory.observe(event({ messageId: 'b' }));
    expect(await memory.observe(event({ messageId: 'c' }))).toEqual({
      messageId: 'c',
      status: 'rejected',
      reason: 'queue_over_capacity',
    });
    await memory.close();
  });

  it('keeps only a hash and never extracts when raw storage is off', async () => {
    const h = harness({ privacy: { storeRawMessages: false } });
    await h.memory.observe(event());
    expect(await h.memory.flush()).toBe(0);
    expect(h.llm.calls).toHaveLength(0);
    const stats = await h.memory.stats({ guildId: GUILD });
    expect(stats).toMatchObject({ pending: 0, processed: 1 });
    const exported = JSON.stringify(await h.memory.admin.exportUser({ guildId: GUILD, userId: ALICE }));
    expect(exported.includes('Omaha')).toBe(false);
    await h.memory.close();
  });

  it('truncates very long content with a flag instead of rejecting it', async () => {
    const { memory } = harness();
    expect((await memory.observe(event({ content: 'x'.repeat(9000) }))).status).toBe('accepted');
    const [row] = (await memory.admin.exportUser({ guildId: GUILD, userId: ALICE })).messages;
    expect(row?.content.length).toBe(8000);
    expect(row?.contentTruncated).toBe(true);
    await memory.close();
  });

  it('throws SCHEMA_INVALID for bad events and nothing else', async () => {
    const { memory } = harness();
    const code = async (e: unknown) => {
      try {
        await memory.observe(e as never);
        return 'resolved';
      } catch (error) {
        return MemoryError.is(error) ? error.code : 'other';
      }
    };
    expect(await code(event({ createdAt: '2026-08-24T12:00:00' }))).toBe('SCHEMA_INVALID');
    expect(await code(event({ authorId: '' }))).toBe('SCHEMA_INVALID');
    expect(await code(event({ surprise: true }))).toBe('SCHEMA_INVALID');
    expect(
      await code(
        event({ metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v'])) }),
      ),
    ).toBe('SCHEMA_INVALID');
    expect(await code(event({ messageId: 'p', metadata: JSON.parse('{"__proto__": "x", "ok": "y"}') }))).toBe(
      'resolved',
    );
    await memory.close();
  });

  it('never puts message content into error messages', async () => {
    const { memory } = harness();
    try {
      await memory.observe(event({ content: 'SECRET-CONTENT', createdAt: 'yesterday' }));
    } catch (error) {
      expect(String((error as Error).message)).not.toContain('SECRET');
      expect(JSON.stringify((error as MemoryError).issues)).not.toContain('SECRET');
    }
    await memory.close();
  });

  it('rejects with reason closed after close', async () => {
    const { memory } = harness();
    await memory.observe(event());
    await memory.close();
    expect(await memory.observe(event({ messageId: 'late' }))).toEqual({
      messageId: 'late',
      status: 'rejected',
      reason: 'closed',
    });
  });
});
