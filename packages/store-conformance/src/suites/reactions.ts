import type { MemoryStore, Reaction, ReactionCount } from '@permafrost/core';
import { purgeMember } from '@permafrost/core/internal';
import { describe, expect, it } from 'vitest';
import { at, type ConformanceOptions, G1, G2, makeMessage, withStore } from '../fixtures.js';

const reaction = (overrides: Partial<Reaction> = {}): Reaction => ({
  guildId: G1,
  channelId: 'c1',
  messageId: 'm1',
  userId: 'u1',
  emoji: '👍',
  at: at(0),
  ...overrides,
});

/** Counts of one message as a sorted plain object (store order is unspecified). */
async function countsOf(s: MemoryStore, guildId: string, messageId: string, exclude?: readonly string[]) {
  const counts = await s.reactions.reactionCounts(
    guildId,
    [messageId],
    exclude ? { excludeUserIds: exclude } : {},
  );
  return Object.fromEntries(
    (counts.get(messageId) ?? ([] as ReactionCount[])).map((c) => [c.emoji, c.count]),
  );
}

const keys = (rows: readonly Reaction[]) => rows.map((r) => `${r.messageId}/${r.userId}/${r.emoji}`);

export function reactionSuite(o: ConformanceOptions): void {
  describe('reactions', () => {
    it('is idempotent per (message, member, emoji) and counts per emoji', () =>
      withStore(o, async (s) => {
        expect(await s.reactions.addReaction(reaction())).toBe(true);
        expect(await s.reactions.addReaction(reaction({ at: at(5) }))).toBe(false);
        expect(await s.reactions.addReaction(reaction({ userId: 'u2' }))).toBe(true);
        expect(await s.reactions.addReaction(reaction({ emoji: '🎉' }))).toBe(true);
        expect(await s.reactions.addReaction(reaction({ emoji: '<:party:123456789012345678>' }))).toBe(true);
        expect(await countsOf(s, G1, 'm1')).toEqual({ '👍': 2, '🎉': 1, '<:party:123456789012345678>': 1 });
        // The duplicate kept the first row as it was.
        const [first] = await s.reactions.listReactions(G1, { messageIds: ['m1'], userId: 'u1', limit: 1 });
        expect(first).toEqual(reaction({ emoji: '<:party:123456789012345678>' }));
        expect(await s.reactions.reactionCounts(G1, ['m1', 'nothing'])).toHaveProperty('size', 1);
        expect(await s.reactions.reactionCounts(G1, [])).toHaveProperty('size', 0);
      }));

    it('removes one reaction, then counts without it; removing twice is a no-op', () =>
      withStore(o, async (s) => {
        await s.reactions.addReaction(reaction());
        await s.reactions.addReaction(reaction({ userId: 'u2' }));
        const ref = { messageId: 'm1', userId: 'u1', emoji: '👍' };
        expect(await s.reactions.removeReaction(G1, ref)).toBe(true);
        expect(await s.reactions.removeReaction(G1, ref)).toBe(false);
        expect(await countsOf(s, G1, 'm1')).toEqual({ '👍': 1 });
        expect(await s.reactions.removeReaction(G1, { ...ref, userId: 'u2' })).toBe(true);
        expect(await countsOf(s, G1, 'm1')).toEqual({});
        // Added again after its removal: a new row.
        expect(await s.reactions.addReaction(reaction({ at: at(9) }))).toBe(true);
        expect((await s.reactions.listReactions(G1, { limit: 5 })).map((r) => r.at)).toEqual([at(9)]);
      }));

    it('leaves out the reactions of excluded members from counts', () =>
      withStore(o, async (s) => {
        for (const userId of ['u1', 'u2', 'u3']) await s.reactions.addReaction(reaction({ userId }));
        await s.reactions.addReaction(reaction({ userId: 'u2', emoji: '🎉' }));
        expect(await countsOf(s, G1, 'm1', ['u2'])).toEqual({ '👍': 2 });
        expect(await countsOf(s, G1, 'm1', ['u1', 'u2', 'u3'])).toEqual({});
      }));

    it('keeps guilds apart', () =>
      withStore(o, async (s) => {
        await s.reactions.addReaction(reaction());
        await s.reactions.addReaction(reaction({ guildId: G2 }));
        await s.reactions.addReaction(reaction({ guildId: G2, userId: 'u2' }));
        expect(await countsOf(s, G1, 'm1')).toEqual({ '👍': 1 });
        expect(await countsOf(s, G2, 'm1')).toEqual({ '👍': 2 });
        expect(await s.reactions.clearReactions(G2, ['m1'])).toBe(2);
        expect(await countsOf(s, G1, 'm1')).toEqual({ '👍': 1 });
        expect(await s.reactions.removeReaction(G2, { messageId: 'm1', userId: 'u1', emoji: '👍' })).toBe(
          false,
        );
        expect(keys(await s.reactions.listReactions(G2, { limit: 10 }))).toEqual([]);
        expect(keys(await s.reactions.listReactions(G1, { limit: 10 }))).toEqual(['m1/u1/👍']);
      }));

    it('clears a message’s reactions, or one emoji’s, and deletes exact rows', () =>
      withStore(o, async (s) => {
        for (const [messageId, userId, emoji] of [
          ['m1', 'u1', '👍'],
          ['m1', 'u2', '👍'],
          ['m1', 'u1', '🎉'],
          ['m2', 'u1', '👍'],
          ['m3', 'u3', '🔥'],
        ] as const)
          await s.reactions.addReaction(reaction({ messageId, userId, emoji }));
        expect(await s.reactions.clearReactions(G1, ['m1'], { emoji: '👍' })).toBe(2);
        expect(await countsOf(s, G1, 'm1')).toEqual({ '🎉': 1 });
        expect(await s.reactions.clearReactions(G1, ['m1', 'm2', 'none'])).toBe(2);
        expect(await s.reactions.clearReactions(G1, [])).toBe(0);
        expect(
          await s.reactions.deleteReactions(G1, [
            { messageId: 'm3', userId: 'u3', emoji: '🔥' },
            { messageId: 'm3', userId: 'u3', emoji: '🔥' },
            { messageId: 'm9', userId: 'u3', emoji: '🔥' },
          ]),
        ).toBe(1);
        expect(await s.reactions.listReactions(G1, { limit: 10 })).toEqual([]);
      }));

    it('lists by member or by messages in (message, member, emoji) order, page by page', () =>
      withStore(o, async (s) => {
        const rows: [string, string, string][] = [];
        for (const m of ['m1', 'm2', 'm3', 'm4'])
          for (const u of ['u1', 'u2'])
            for (const e of ['a', 'b']) {
              rows.push([m, u, e]);
              await s.reactions.addReaction(
                reaction({ messageId: m, userId: u, emoji: e, channelId: `c-${m}` }),
              );
            }
        const all = rows.map(([m, u, e]) => `${m}/${u}/${e}`);
        const walk = async (query: { userId?: string; messageIds?: string[] }, pageSize: number) => {
          const out: Reaction[] = [];
          let after: Reaction | undefined;
          for (;;) {
            const page = await s.reactions.listReactions(G1, {
              ...query,
              limit: pageSize,
              ...(after ? { after } : {}),
            });
            out.push(...page);
            if (page.length < pageSize) return out;
            after = page[page.length - 1];
          }
        };
        expect(keys(await walk({}, 3))).toEqual(all);
        expect(keys(await walk({ userId: 'u2' }, 3))).toEqual(all.filter((k) => k.includes('/u2/')));
        expect(keys(await walk({ messageIds: ['m4', 'm2'] }, 3))).toEqual(
          all.filter((k) => k.startsWith('m2/') || k.startsWith('m4/')),
        );
        const [one] = await s.reactions.listReactions(G1, { messageIds: ['m3'], userId: 'u1', limit: 1 });
        expect(one).toEqual(reaction({ messageId: 'm3', userId: 'u1', emoji: 'a', channelId: 'c-m3' }));
      }));

    it('a purge removes the member’s reactions and those to their messages; others stay', () =>
      withStore(o, async (s) => {
        const aliceSays = makeMessage({ authorId: 'alice', status: 'processed' });
        const bobSays = makeMessage({ authorId: 'bob', status: 'processed' });
        await s.queue.enqueueMany([aliceSays, bobSays], 100);
        const on = (m: { messageId: string }, userId: string, emoji = '👍') =>
          s.reactions.addReaction(reaction({ messageId: m.messageId, userId, emoji }));
        await on(bobSays, 'alice');
        await on(bobSays, 'carol');
        await on(aliceSays, 'bob');
        await on(aliceSays, 'alice', '🎉');
        await s.reactions.addReaction(
          reaction({ guildId: G2, messageId: bobSays.messageId, userId: 'alice' }),
        );
        const dry = await purgeMember(s, { guildId: G1, userId: 'alice', dryRun: true });
        expect(dry.reactions).toBe(3);
        const real = await purgeMember(s, { guildId: G1, userId: 'alice', dryRun: false });
        expect(real).toEqual({ ...dry, dryRun: false });
        expect(await countsOf(s, G1, bobSays.messageId)).toEqual({ '👍': 1 });
        expect(await countsOf(s, G1, aliceSays.messageId)).toEqual({});
        expect(await s.reactions.listReactions(G1, { userId: 'alice', limit: 10 })).toEqual([]);
        expect(keys(await s.reactions.listReactions(G1, { limit: 10 }))).toEqual([
          `${bobSays.messageId}/carol/👍`,
        ]);
        // Another guild's reactions by the same id are another member's data.
        expect(await countsOf(s, G2, bobSays.messageId)).toEqual({ '👍': 1 });
        expect((await purgeMember(s, { guildId: G1, userId: 'alice', dryRun: true })).reactions).toBe(0);
      }));
  });
}
