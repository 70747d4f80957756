import { describe, expect, it } from 'vitest';
import { createInMemoryStore } from '../../src/index.js';
import { ALICE, BOB, CAROL, CHANNEL, GUILD, harness } from './helpers.js';

describe('conversation history', () => {
  it('pages channel history oldest first and reads author history', async () => {
    const h = harness();
    const ids: string[] = [];
    for (let i = 0; i < 6; i++)
      ids.push(await h.say(i % 2 === 0 ? ALICE : BOB, `message number ${i} about nothing much`));
    const last3 = await h.memory.conversation.threadHistory({ guildId: GUILD, channelId: CHANNEL, limit: 3 });
    expect(last3.map((m) => m.messageId)).toEqual(ids.slice(3));
    const before = await h.memory.conversation.threadHistory({
      guildId: GUILD,
      channelId: CHANNEL,
      limit: 2,
      beforeMessageId: ids[3] as string,
    });
    expect(before.map((m) => m.messageId)).toEqual(ids.slice(1, 3));
    const alice = await h.memory.conversation.authorHistory({ guildId: GUILD, authorId: ALICE });
    expect(alice.map((m) => m.content)).toEqual([
      'message number 0 about nothing much',
      'message number 2 about nothing much',
      'message number 4 about nothing much',
    ]);
    const stats = await h.memory.conversation.channelStats({ guildId: GUILD, channelId: CHANNEL });
    expect(stats).toMatchObject({ count: 6, botMessages: 0, uniqueAuthors: 2 });
    await h.memory.close();
  });

  it('stores the bot’s replies in history but never extracts them', async () => {
    const h = harness({ batching: { batchSizeMessages: 1 } });
    await h.say(ALICE, 'i adopted a cat named miso yesterday, she is tiny');
    const reply = await h.memory.conversation.recordReply({
      guildId: GUILD,
      channelId: CHANNEL,
      content: 'Congrats on adopting Miso! I love cats too.',
      botId: 'bot-1',
    });
    expect(reply).toMatchObject({ isBot: true, kind: 'reply' });
    await h.memory.flush();
    const extractionInputs = h.llm.callsFor('extraction').map((c) => JSON.stringify(c.messages));
    expect(extractionInputs.some((x) => x.includes('Congrats on adopting'))).toBe(false);
    const history = await h.memory.conversation.threadHistory({ guildId: GUILD, channelId: CHANNEL });
    expect(history.map((m) => m.kind)).toEqual(['chat', 'reply']);
    expect(
      (await h.memory.conversation.channelStats({ guildId: GUILD, channelId: CHANNEL })).botMessages,
    ).toBe(1);
    await h.memory.close();
  });
});

describe('sessions', () => {
  it('appends entries, keeps the last N and clears', async () => {
    const h = harness({ conversation: { maxSessionEntries: 50 } });
    for (let i = 0; i < 55; i++) {
      h.clock.advanceSeconds(1);
      await h.memory.conversation.append({
        sessionId: 'dm-abc',
        role: i % 2 === 0 ? 'user' : 'assistant',
        content: `turn ${i}`,
      });
    }
    const entries = await h.memory.conversation.session('dm-abc');
    expect(entries).toHaveLength(50);
    expect(entries[0]?.content).toBe('turn 5');
    expect(entries[49]).toMatchObject({ role: 'user', content: 'turn 54' });
    expect((await h.memory.conversation.session('dm-abc', { limit: 3 })).map((e) => e.content)).toEqual([
      'turn 52',
      'turn 53',
      'turn 54',
    ]);
    expect(await h.memory.conversation.clear('dm-abc')).toBe(50);
    expect(await h.memory.conversation.session('dm-abc')).toEqual([]);
    await h.memory.close();
  });

  it('honours maxSessionEntries', async () => {
    const h = harness({ conversation: { maxSessionEntries: 3 } });
    for (let i = 0; i < 5; i++)
      await h.memory.conversation.append({ sessionId: 's', role: 'user', content: `turn ${i}` });
    expect((await h.memory.conversation.session('s')).map((e) => e.content)).toEqual([
      'turn 2',
      'turn 3',
      'turn 4',
    ]);
    await h.memory.close();
  });

  it('skips corrupt session rows instead of failing', async () => {
    const store = createInMemoryStore();
    const h = harness({}, { store });
    await h.memory.conversation.append({ sessionId: 's1', role: 'user', content: 'hello there' });
    await store.queue.enqueue(
      {
        messageId: 'corrupt',
        guildId: 'session:s1',
        channelId: 's1',
        authorId: 'not-a-role',
        authorUsername: '',
        authorDisplayName: '',
        authorIsBot: false,
        content: 'garbage',
        contentTruncated: false,
        rawStored: true,
        createdAt: new Date(Number.NaN),
        mentionIds: [],
        replyToMessageId: null,
        threadParentId: null,
        edited: false,
        metadata: null,
        kind: 'session',
        subjectKey: 's1',
        status: 'processed',
        attempts: 0,
        nextAttemptAt: null,
        leaseOwner: null,
        leaseUntil: null,
        processedAt: null,
      },
      1000,
    );
    await h.memory.conversation.append({ sessionId: 's1', role: 'assistant', content: 'hi!' });
    expect((await h.memory.conversation.session('s1')).map((e) => e.content)).toEqual(['hello there', 'hi!']);
    await h.memory.close();
  });
});

describe('claims and active modes', () => {
  it('lets exactly one instance claim a message and another take over after the TTL', async () => {
    const store = createInMemoryStore();
    const a = harness({}, { store, instanceId: 'instance-a' });
    const b = harness({}, { store, instanceId: 'instance-b' });
    b.clock.set(a.clock.now());
    const results = await Promise.all([
      a.memory.claims.tryClaim({ guildId: GUILD, channelId: CHANNEL, messageId: 'm1' }),
      b.memory.claims.tryClaim({ guildId: GUILD, channelId: CHANNEL, messageId: 'm1' }),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const loser = results[0] ? b : a;
    expect(await loser.memory.claims.tryClaim({ guildId: GUILD, channelId: CHANNEL, messageId: 'm1' })).toBe(
      false,
    );
    loser.clock.advanceSeconds(31);
    expect(
      await loser.memory.claims.tryClaim({
        guildId: GUILD,
        channelId: CHANNEL,
        messageId: 'm1',
        ttlSeconds: 30,
      }),
    ).toBe(true);
    await a.memory.close();
    await b.memory.close();
  });

  it('persists active modes per instance and lists recent ones', async () => {
    const h = harness({}, { instanceId: 'i-1' });
    await h.memory.activeModes.persist({ guildId: GUILD, channelId: CHANNEL, mode: 'deep' });
    h.clock.advanceSeconds(5 * 60);
    expect((await h.memory.activeModes.list()).map((m) => m.mode)).toEqual(['deep']);
    h.clock.advanceSeconds(6 * 60);
    expect(await h.memory.activeModes.list({ activeWithinMinutes: 10 })).toEqual([]);
    expect(await h.memory.activeModes.touch({ guildId: GUILD, channelId: CHANNEL })).toBe(true);
    expect((await h.memory.activeModes.list()).length).toBe(1);
    expect(await h.memory.activeModes.remove({ guildId: GUILD, channelId: CHANNEL })).toBe(true);
    expect(await h.memory.activeModes.list()).toEqual([]);
    await h.memory.close();
  });
});

describe('insights', () => {
  it('finds keywords and entities rising in the last 24 hours', async () => {
    const h = harness();
    await h.memory.facts.remember({
      guildId: GUILD,
      subjectId: ALICE,
      text: 'Alice plays Elden Ring every evening',
      entities: [{ name: 'Elden Ring', kind: 'product' }],
    });
    for (let i = 0; i < 3; i++) await h.say(BOB, 'anyone up for minecraft tonight? building a castle');
    h.clock.advanceDays(1);
    for (let i = 0; i < 4; i++) await h.say(ALICE, 'elden ring dlc boss is brutal, died again');
    await h.say(CAROL, 'minecraft castle is done btw');
    const trends = await h.memory.insights.topicTrends({ guildId: GUILD, hours: 24 });
    expect(trends[0]).toMatchObject({ topic: 'elden-ring', kind: 'entity', count: 4, previous: 0 });
    expect(trends.some((t) => t.topic === 'minecraft')).toBe(false);
    await h.memory.close();
  });

  it('reports activity by hour and weekday with peak hours', async () => {
    const h = harness();
    h.clock.set('2026-08-17T00:00:00Z');
    for (let day = 0; day < 7; day++) {
      h.clock.set(new Date(Date.UTC(2026, 7, 17 + day, 20, 0, 0)));
      for (let i = 0; i < 3; i++) await h.say(ALICE, `evening chat ${day}-${i} about games`);
      h.clock.set(new Date(Date.UTC(2026, 7, 17 + day, 9, 0, 0)));
      await h.say(BOB, `morning chat ${day} about coffee`);
    }
    h.clock.set('2026-08-24T12:00:00Z');
    const activity = await h.memory.insights.activity({ guildId: GUILD, days: 30 });
    expect(activity.messages).toBe(28);
    expect(activity.peakHours[0]).toBe(20);
    expect(activity.byHour[20]).toBe(21);
    expect(activity.byHour[9]).toBe(7);
    expect(activity.byWeekday.reduce((a, b) => a + b, 0)).toBe(28);
    await h.memory.close();
  });

  it('reads a member’s preferences from the graph', async () => {
    const h = harness();
    await h.memory.facts.remember({
      guildId: GUILD,
      subjectId: ALICE,
      text: 'Alice loves green tea',
      relations: [{ verb: 'loves', toEntity: 'green tea' }],
    });
    await h.memory.facts.remember({
      guildId: GUILD,
      subjectId: ALICE,
      text: 'Alice hates cilantro',
      relations: [{ verb: 'hates', toEntity: 'cilantro' }],
    });
    const prefs = await h.memory.insights.preferences({ guildId: GUILD, userId: ALICE });
    expect(prefs.map((p) => [p.target, p.polarity])).toEqual(
      expect.arrayContaining([
        ['green-tea', 'positive'],
        ['cilantro', 'negative'],
      ]),
    );
    await h.memory.close();
  });
});
