import {
  type Audience,
  createMemory,
  type Memory,
  MemoryError,
  type MessageEventInput,
} from '@permafrost/core';
import { afterEach, describe, expect, it } from 'vitest';
import { openRaw } from '../reliability/support/sqlite-inspect.js';
import { selectedStores } from './stores.js';

/**
 * Issue #22 §2, reactions: `observeReaction` stores who reacted to which message with what (O(1),
 * idempotent), history and the hot tier carry the counts, insights can weigh by them, and purge,
 * opt-out, deletion and export cover them. A reaction is never a statement of the member who
 * reacted.
 */
const GUILD = '540000000000000001';
const GENERAL = '640000000000000001';
const MODS = '640000000000000002';
const [ALICE, BOB, CAROL, DAVE, BOT] = [
  '141000000000000001',
  '141000000000000002',
  '141000000000000003',
  '141000000000000004',
  '141000000000000009',
];
const NAMES: Record<string, string> = { [ALICE]: 'Alice', [BOB]: 'Bob', [CAROL]: 'Carol', [DAVE]: 'Dave' };
const inGeneral: Audience = { channelId: GENERAL, requesterId: ALICE };

let n = 0;
const say = (authorId: string, content: string, channelId = GENERAL, minutesAgo = 60): MessageEventInput => ({
  messageId: `74000000000${String(++n).padStart(7, '0')}`,
  guildId: GUILD,
  channelId,
  authorId,
  content,
  createdAt: new Date(Date.now() - minutesAgo * 60_000 + n),
  authorUsername: (NAMES[authorId] ?? 'x').toLowerCase(),
  authorDisplayName: NAMES[authorId] ?? 'X',
});
const react = (messageId: string, userId: string, emoji: string, added = true) => ({
  guildId: GUILD,
  channelId: GENERAL,
  messageId,
  userId,
  emoji,
  added,
});

for (const store of selectedStores()) {
  describe(`reactions on ${store.name}`, () => {
    let memory: Memory | undefined;
    let url = '';
    const open = async (messages: readonly MessageEventInput[]) => {
      url = store.url();
      memory = createMemory({
        storage: url,
        llm: 'heuristic',
        workers: { enabled: false },
        access: { publicChannelIds: [GENERAL] },
      });
      memory.registerBotId(BOT);
      await memory.observeMany(messages);
      return memory;
    };
    afterEach(async () => {
      await memory?.close({ drain: false });
      memory = undefined;
    });
    const counts = async (m: Memory, messageId: string) =>
      (await m.conversation.threadHistory({ guildId: GUILD, channelId: GENERAL, limit: 50 })).find(
        (x) => x.messageId === messageId,
      )?.reactions;

    it('records reactions idempotently, with receipts like observe, and ignores what it must', async () => {
      const cats = say(ALICE, 'I love cats so much');
      const hello = say(BOB, 'hello all');
      const m = await open([cats, hello]);
      const status = async (input: ReturnType<typeof react> & Record<string, unknown>) => {
        const r = await m.observeReaction(input);
        expect(r.messageId).toBe(input.messageId);
        return r.reason === null ? r.status : `${r.status}:${r.reason}`;
      };
      expect(await status(react(cats.messageId, BOB, '❤️'))).toBe('accepted');
      expect(await status(react(cats.messageId, BOB, '❤️'))).toBe('ignored:duplicate');
      expect(await status(react(cats.messageId, CAROL, '❤️'))).toBe('accepted');
      expect(await status(react(cats.messageId, CAROL, '<:lol:123456789012345678>'))).toBe('accepted');
      expect(await status(react(hello.messageId, BOB, '👍'))).toBe('accepted');
      expect(await status({ ...react(cats.messageId, BOT, '🤖') })).toBe('ignored:bot_author');
      expect(await status({ ...react(cats.messageId, DAVE, '🤖'), userIsBot: true })).toBe(
        'ignored:bot_author',
      );
      expect(await status(react('74000000009999999', BOB, '👍'))).toBe('ignored:unknown_message');
      await m.admin.setOptOut({ guildId: GUILD, userId: DAVE, optedOut: true });
      expect(await status(react(cats.messageId, DAVE, '👍'))).toBe('ignored:opted_out');
      expect(await counts(m, cats.messageId)).toEqual([
        { emoji: '❤️', count: 2 },
        { emoji: '<:lol:123456789012345678>', count: 1 },
      ]);
      // Removals: once, then a no-op.
      expect(await status(react(cats.messageId, CAROL, '<:lol:123456789012345678>', false))).toBe('accepted');
      expect(await status(react(cats.messageId, CAROL, '<:lol:123456789012345678>', false))).toBe(
        'ignored:duplicate',
      );
      expect(await counts(m, cats.messageId)).toEqual([{ emoji: '❤️', count: 2 }]);
      expect(
        await m.clearReactions({ guildId: GUILD, channelId: GENERAL, messageId: cats.messageId, emoji: '❤️' }),
      ).toBe(2);
      expect(await counts(m, cats.messageId)).toEqual([]);
    });

    it('validates with SCHEMA_INVALID and never echoes the input', async () => {
      const m = await open([say(ALICE, 'hi')]);
      const bad = [
        { ...react('1', BOB, '') },
        { ...react('1', BOB, '🎉'.repeat(65)) },
        { ...react('1', BOB, 'a\nb') },
        { ...react('1', BOB, ' 👍') },
        { guildId: GUILD, channelId: GENERAL, messageId: '1', userId: BOB, emoji: '👍' },
        { ...react('1', BOB, '👍'), extra: 'SECRET-WORD' },
        { ...react('1', BOB, '👍'), at: 'yesterday' },
      ];
      for (const input of bad) {
        const error = await m.observeReaction(input as never).catch((e: unknown) => e);
        expect(MemoryError.is(error, 'SCHEMA_INVALID'), JSON.stringify(input)).toBe(true);
        expect(String((error as Error).message)).not.toContain('SECRET-WORD');
      }
      await expect(
        m.clearReactions({ guildId: GUILD, channelId: GENERAL, messageId: '' }),
      ).rejects.toMatchObject({
        code: 'SCHEMA_INVALID',
      });
    });

    it('a reaction is not a statement by the member who reacted', async () => {
      const cats = say(ALICE, 'I love cats so much');
      const m = await open([cats, say(ALICE, 'I work at the bakery downtown')]);
      await m.observeReaction(react(cats.messageId, BOB, '❤️'));
      await m.observeReaction(react(cats.messageId, CAROL, '👎'));
      await m.flush();
      const all = await m.facts.getAll({ guildId: GUILD, subjectId: null, includeServer: true, limit: 1000 });
      const aboutAlice = await m.facts.getAll({ guildId: GUILD, subjectId: ALICE });
      expect(aboutAlice.some((f) => f.text.includes('cats'))).toBe(true);
      for (const f of [...all, ...aboutAlice]) {
        expect([BOB, CAROL]).not.toContain(f.subjectId);
        expect([BOB, CAROL]).not.toContain(f.attribution.speakerId);
        for (const s of f.sources) expect([BOB, CAROL]).not.toContain(s.authorId);
      }
      for (const who of [BOB, CAROL]) {
        expect(await m.facts.getAll({ guildId: GUILD, subjectId: who })).toEqual([]);
        expect(await m.graph.relationsOf({ guildId: GUILD, userId: who, audience: inGeneral })).toEqual([]);
      }
    });

    it('history, the hot tier and the transcript carry the counts; members who opted out are not counted', async () => {
      const cats = say(ALICE, 'I love cats so much');
      const hidden = say(BOB, 'mods only note', MODS);
      const m = await open([cats, hidden]);
      // Read once so the hot tier is loaded before the reactions arrive.
      await m.context({ guildId: GUILD, channelId: GENERAL, askerId: BOB, text: 'hi', mode: 'instant' });
      await m.observeReaction(react(cats.messageId, BOB, '❤️'));
      await m.observeReaction(react(cats.messageId, CAROL, '❤️'));
      await m.observeReaction(react(cats.messageId, CAROL, '😂'));
      await m.observeReaction({ ...react(hidden.messageId, ALICE, '👀'), channelId: MODS });
      const ctx = await m.context({
        guildId: GUILD,
        channelId: GENERAL,
        askerId: BOB,
        text: 'hi',
        mode: 'instant',
      });
      const recent = ctx.recent.find((x) => x.messageId === cats.messageId);
      expect(recent?.reactions).toEqual([
        { emoji: '❤️', count: 2 },
        { emoji: '😂', count: 1 },
      ]);
      expect(ctx.block).toContain('Alice: I love cats so much (reactions: ❤️ 2, 😂 1)');
      const byAlice = await m.conversation.authorHistory({
        guildId: GUILD,
        authorId: ALICE,
        audience: inGeneral,
      });
      expect(byAlice.map((x) => x.reactions)).toEqual([recent?.reactions]);
      const [mods] = await m.conversation.threadHistory({ guildId: GUILD, channelId: MODS });
      expect(mods?.reactions).toEqual([{ emoji: '👀', count: 1 }]);
      await m.admin.setOptOut({ guildId: GUILD, userId: CAROL, optedOut: true });
      expect(await counts(m, cats.messageId)).toEqual([{ emoji: '❤️', count: 1 }]);
      await m.admin.setOptOut({ guildId: GUILD, userId: CAROL, optedOut: false });
      expect(await counts(m, cats.messageId)).toHaveLength(2);
    });

    it('insights can weigh messages by their reactions', async () => {
      const kayak = say(ALICE, 'kayaking trip this weekend', GENERAL, 120);
      const sail = say(BOB, 'sailing trip this weekend', GENERAL, 60);
      const m = await open([kayak, sail]);
      for (const who of [BOB, CAROL, DAVE]) await m.observeReaction(react(kayak.messageId, who, '🔥'));
      const trends = (weightByReactions?: boolean) =>
        m.insights.topicTrends({
          guildId: GUILD,
          audience: inGeneral,
          minCount: 1,
          limit: 50,
          ...(weightByReactions === undefined ? {} : { weightByReactions }),
        });
      const count = (list: Awaited<ReturnType<typeof trends>>, topic: string) =>
        list.find((t) => t.topic === topic)?.count;
      const plain = await trends();
      expect([count(plain, 'kayak'), count(plain, 'sail')]).toEqual([1, 1]);
      const weighted = await trends(true);
      expect([count(weighted, 'kayak'), count(weighted, 'sail'), count(weighted, 'trip')]).toEqual([4, 1, 5]);
      expect(weighted.findIndex((t) => t.topic === 'kayak')).toBeLessThan(
        weighted.findIndex((t) => t.topic === 'sail'),
      );
      const hour = (msg: MessageEventInput) => (msg.createdAt as Date).getUTCHours();
      const activity = await m.insights.activity({
        guildId: GUILD,
        audience: inGeneral,
        weightByReactions: true,
      });
      expect(activity.messages).toBe(2);
      expect(activity.byHour.reduce((a, b) => a + b, 0)).toBe(5);
      expect(activity.byHour[hour(kayak)]).toBeGreaterThanOrEqual(4);
      expect(activity.peakHours[0]).toBe(hour(kayak));
      const unweighted = await m.insights.activity({ guildId: GUILD, audience: inGeneral });
      expect(unweighted.byHour.reduce((a, b) => a + b, 0)).toBe(2);
    });

    it('deletion takes a message’s reactions along; an edit keeps them', async () => {
      const cats = say(ALICE, 'I love cats so much');
      const dogs = say(ALICE, 'I love dogs too');
      const m = await open([cats, dogs]);
      await m.observeReaction(react(cats.messageId, BOB, '❤️'));
      await m.observeReaction(react(dogs.messageId, BOB, '🐶'));
      await m.observe({ ...dogs, content: 'I love dogs and hamsters too', edited: true });
      expect(await counts(m, dogs.messageId)).toEqual([{ emoji: '🐶', count: 1 }]);
      const report = await m.forgetMessage({ guildId: GUILD, channelId: GENERAL, messageId: cats.messageId });
      expect(report.reactionsDeleted).toBe(1);
      expect(
        (await m.admin.exportUser({ guildId: GUILD, userId: BOB })).reactions.map((r) => r.messageId),
      ).toEqual([dogs.messageId]);
      // A late reaction to the deleted message is not stored.
      expect((await m.observeReaction(react(cats.messageId, CAROL, '❤️'))).reason).toBe('unknown_message');
    });

    it('export lists a member’s reactions; purge removes them and the reactions to their messages', async () => {
      const cats = say(ALICE, 'I love cats so much');
      const hello = say(BOB, 'hello all');
      const m = await open([cats, hello]);
      await m.observeReaction(react(cats.messageId, BOB, '❤️'));
      await m.observeReaction(react(cats.messageId, CAROL, '❤️'));
      await m.observeReaction(react(hello.messageId, ALICE, '👋'));
      await m.observeReaction(react(hello.messageId, BOB, '👍'));
      const exported = await m.admin.exportUser({ guildId: GUILD, userId: BOB });
      expect(exported.reactions.map((r) => [r.messageId, r.emoji, r.channelId])).toEqual([
        [cats.messageId, '❤️', GENERAL],
        [hello.messageId, '👍', GENERAL],
      ]);
      const dry = await m.admin.purgeUser({ guildId: GUILD, userId: BOB });
      expect(dry.reactions).toBe(3);
      const report = await m.admin.purgeUser({ guildId: GUILD, userId: BOB, dryRun: false });
      expect(report).toEqual({ ...dry, dryRun: false });
      expect(await counts(m, cats.messageId)).toEqual([{ emoji: '❤️', count: 1 }]);
      expect((await m.admin.exportUser({ guildId: GUILD, userId: BOB })).reactions).toEqual([]);
      expect((await m.admin.exportUser({ guildId: GUILD, userId: ALICE })).reactions).toEqual([]);
      expect((await m.admin.exportUser({ guildId: GUILD, userId: CAROL })).reactions).toHaveLength(1);
      if (store.name === 'sqlite') {
        await m.close();
        const db = openRaw(url.replace(/^sqlite:\/\//, ''), { readonly: true });
        try {
          const rows = (sql: string, ...p: unknown[]) => (db.prepare(sql).get(...p) as { n: number }).n;
          expect(rows('SELECT count(*) AS n FROM reactions WHERE user_id = ?', BOB)).toBe(0);
          expect(rows('SELECT count(*) AS n FROM reactions WHERE message_id = ?', hello.messageId)).toBe(0);
          expect(rows('SELECT count(*) AS n FROM reactions')).toBe(1);
        } finally {
          db.close();
        }
      }
    });
  });
}
