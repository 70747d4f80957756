import type { StoredMessage } from '@permafrost/core';
import { Bm25Corpus, indexTerms, type WindowAnchor } from '@permafrost/core/store';
import { describe, expect, it } from 'vitest';
import { at, type ConformanceOptions, G1, G2, makeMessage, withStore } from '../fixtures.js';

export function conversationSuite(o: ConformanceOptions): void {
  describe('conversation', () => {
    it('reads channel history oldest first with paging before a message', () =>
      withStore(o, async (s) => {
        const msgs = Array.from({ length: 6 }, () => makeMessage({ channelId: 'c9' }));
        await s.queue.enqueueMany([...msgs, makeMessage({ channelId: 'other' })], 100);
        const last3 = await s.conversation.channelHistory(G1, 'c9', { limit: 3 });
        expect(last3.map((m) => m.messageId)).toEqual(msgs.slice(3).map((m) => m.messageId));
        const before = await s.conversation.channelHistory(G1, 'c9', {
          limit: 2,
          beforeMessageId: msgs[3]?.messageId as string,
        });
        expect(before.map((m) => m.messageId)).toEqual(msgs.slice(1, 3).map((m) => m.messageId));
        expect(await s.conversation.channelHistory(G2, 'c9', { limit: 10 })).toEqual([]);
      }));

    it('reads the messages right after a message', () =>
      withStore(o, async (s) => {
        const msgs = Array.from({ length: 6 }, () => makeMessage({ channelId: 'c8' }));
        await s.queue.enqueueMany([...msgs, makeMessage({ channelId: 'other' })], 100);
        const after = await s.conversation.channelHistory(G1, 'c8', {
          limit: 2,
          afterMessageId: msgs[1]?.messageId as string,
        });
        expect(after.map((m) => m.messageId)).toEqual(msgs.slice(2, 4).map((m) => m.messageId));
        const between = await s.conversation.channelHistory(G1, 'c8', {
          limit: 10,
          afterMessageId: msgs[1]?.messageId as string,
          beforeMessageId: msgs[4]?.messageId as string,
        });
        expect(between.map((m) => m.messageId)).toEqual(msgs.slice(2, 4).map((m) => m.messageId));
        const last = await s.conversation.channelHistory(G1, 'c8', {
          limit: 3,
          afterMessageId: msgs[5]?.messageId as string,
        });
        expect(last).toEqual([]);
        expect(
          await s.conversation.channelHistory(G1, 'c8', { limit: 3, afterMessageId: 'missing' }),
        ).toEqual([]);
      }));

    it('reads the windows around many messages in one call, as channelHistory reads each side', () =>
      withStore(o, async (s) => {
        const a = Array.from({ length: 6 }, () => makeMessage({ channelId: 'w1' }));
        const b = Array.from({ length: 3 }, () => makeMessage({ channelId: 'w2' }));
        const elsewhere = makeMessage({ channelId: 'w1', guildId: G2 });
        await s.queue.enqueueMany([...a, ...b, elsewhere], 100);
        const id = (m: { messageId: string }) => m.messageId;
        const anchors = [a[0], a[3], a[5], b[1]].map((m) => ({
          channelId: m?.channelId as string,
          messageId: m?.messageId as string,
        }));
        const windows = await s.conversation.channelWindows(G1, anchors, 2);
        expect(windows.map((w) => [w.before.map(id), w.after.map(id)])).toEqual([
          [[], a.slice(1, 3).map(id)],
          [a.slice(1, 3).map(id), a.slice(4, 6).map(id)],
          [a.slice(3, 5).map(id), []],
          [b.slice(0, 1).map(id), b.slice(2, 3).map(id)],
        ]);
        // The same rows channelHistory gives for each side, an unknown anchor included.
        const all = [...anchors, { channelId: 'w1', messageId: 'missing' }];
        const each = await Promise.all(
          all.map(async (x) => ({
            before: await s.conversation.channelHistory(G1, x.channelId, {
              limit: 2,
              beforeMessageId: x.messageId,
            }),
            after: await s.conversation.channelHistory(G1, x.channelId, {
              limit: 2,
              afterMessageId: x.messageId,
            }),
          })),
        );
        expect(await s.conversation.channelWindows(G1, all, 2)).toEqual(each);
        expect(await s.conversation.channelWindows(G1, [], 2)).toEqual([]);
        // An anchor named twice gets its window twice; one named with another channel is unknown
        // there (the latest messages of that channel before it, nothing after).
        const [a2, a3, a4, b2] = [a[2], a[3], a[4], b[2]].map((m) => id(m as StoredMessage));
        const repeated = [anchors[1], { channelId: 'w2', messageId: a3 as string }, anchors[1]];
        const twice = await s.conversation.channelWindows(G1, repeated as WindowAnchor[], 1);
        expect(twice.map((w) => [w.before.map(id), w.after.map(id)])).toEqual([
          [[a2], [a4]],
          [[b2], []],
          [[a2], [a4]],
        ]);
        // Guilds stay apart: in G2 the anchor is unknown, so only G2's own row comes back.
        const [other] = await s.conversation.channelWindows(G2, anchors.slice(0, 1), 2);
        expect([other?.before.map(id), other?.after]).toEqual([[elsewhere.messageId], []]);
      }));

    it('orders a window by message id among messages sent at the same instant', () =>
      withStore(o, async (s) => {
        const when = at(500);
        const same = Array.from({ length: 5 }, () => makeMessage({ channelId: 'w3', createdAt: when }));
        // Stored out of order: the position is (time, message id), never the insertion order.
        await s.queue.enqueueMany([same[3], same[0], same[4], same[2], same[1]] as StoredMessage[], 100);
        const id = (m: { messageId: string }) => m.messageId;
        const ids = same.map(id);
        const windows = await s.conversation.channelWindows(
          G1,
          [0, 2, 4].map((i) => ({ channelId: 'w3', messageId: ids[i] as string })),
          2,
        );
        expect(windows.map((w) => [w.before.map(id), w.after.map(id)])).toEqual([
          [[], ids.slice(1, 3)],
          [ids.slice(0, 2), ids.slice(3, 5)],
          [ids.slice(2, 4), []],
        ]);
      }));

    it('reads an author’s history and channel statistics', () =>
      withStore(o, async (s) => {
        await s.queue.enqueueMany(
          [
            makeMessage({ authorId: 'u1', channelId: 'c1' }),
            makeMessage({ authorId: 'u2', channelId: 'c1' }),
            makeMessage({ authorId: 'u1', channelId: 'c2' }),
            makeMessage({
              authorId: 'bot',
              channelId: 'c1',
              kind: 'reply',
              status: 'processed',
              authorIsBot: true,
            }),
          ],
          100,
        );
        expect((await s.conversation.authorHistory(G1, 'u1', 10)).map((m) => m.channelId)).toEqual([
          'c1',
          'c2',
        ]);
        expect((await s.conversation.authorHistory(G1, 'u1', 1)).map((m) => m.channelId)).toEqual(['c2']);
        const stats = await s.conversation.channelStats(G1, 'c1');
        expect(stats).toMatchObject({ count: 3, botMessages: 1, uniqueAuthors: 3 });
        expect(stats.firstAt?.getTime()).toBeLessThan(stats.lastAt?.getTime() ?? 0);
        expect(await s.conversation.channelStats(G1, 'none')).toEqual({
          count: 0,
          firstAt: null,
          lastAt: null,
          botMessages: 0,
          uniqueAuthors: 0,
        });
      }));

    it('searches raw message text by keyword, per guild', () =>
      withStore(o, async (s) => {
        await s.queue.enqueueMany(
          [
            makeMessage({ content: 'we went to the concert downtown last friday' }),
            makeMessage({ content: 'concert tickets were expensive but the concert was great' }),
            makeMessage({ content: 'nothing to see here' }),
            makeMessage({ content: 'a3f9c2', rawStored: false, status: 'processed' }),
            makeMessage({ guildId: G2, content: 'another concert elsewhere' }),
          ],
          100,
        );
        const hits = await s.conversation.searchText(G1, indexTerms('remember that concert?'), 10);
        expect(hits).toHaveLength(2);
        expect(hits[0]?.message.content).toContain('tickets');
        expect(await s.conversation.searchText(G1, indexTerms('a3f9c2'), 10)).toEqual([]);
      }));

    it("reports the query's full-match score on every message hit", () =>
      withStore(o, async (s) => {
        const contents = [
          'we went to the concert downtown last friday',
          'concert tickets were expensive but the concert was great',
          'nothing to see here',
          'the tickets sold out in minutes',
        ];
        await s.queue.enqueueMany(
          contents.map((content) => makeMessage({ content })),
          100,
        );
        const reference = new Bm25Corpus();
        for (const c of contents) reference.add(indexTerms(c));
        const terms = indexTerms('concert tickets zeppelin');
        const hits = await s.conversation.searchText(G1, terms, 10);
        expect(hits).toHaveLength(3);
        for (const h of hits) expect(h.fullMatchScore).toBeCloseTo(reference.fullMatchScore(terms), 9);
      }));

    it('trims a channel to its newest rows', () =>
      withStore(o, async (s) => {
        const rows = Array.from({ length: 5 }, () =>
          makeMessage({ guildId: 'session:abc', channelId: 'abc', kind: 'session', status: 'processed' }),
        );
        await s.queue.enqueueMany(rows, 100);
        expect(await s.conversation.trimChannel('session:abc', 'abc', 2)).toBe(3);
        expect(
          (await s.conversation.channelHistory('session:abc', 'abc', { limit: 50 })).map((m) => m.messageId),
        ).toEqual(rows.slice(3).map((m) => m.messageId));
        expect(await s.conversation.trimChannel('session:abc', 'abc', 0)).toBe(2);
      }));

    it('lets one instance claim a message; expired claims can be retaken', () =>
      withStore(o, async (s) => {
        const claim = (owner: string, sec: number, guildId = G1) =>
          s.claims.tryClaim({
            guildId,
            channelId: 'c1',
            messageId: 'm1',
            owner,
            now: at(sec),
            ttlMs: 30_000,
          });
        expect(await claim('a', 0)).toBe(true);
        expect(await claim('b', 1)).toBe(false);
        // The same channel and message ids in another guild are another claim.
        expect(await claim('b', 1, 'other-guild')).toBe(true);
        expect(await claim('a', 2)).toBe(true);
        expect(await claim('b', 31)).toBe(false);
        expect(await claim('b', 33)).toBe(true);
        expect(
          await s.claims.releaseClaim({ guildId: G1, channelId: 'c1', messageId: 'm1', owner: 'a' }),
        ).toBe(false);
        expect(
          await s.claims.releaseClaim({ guildId: G1, channelId: 'c1', messageId: 'm1', owner: 'b' }),
        ).toBe(true);
        expect(await claim('a', 34)).toBe(true);
      }));

    it('persists, touches, lists and removes active modes', () =>
      withStore(o, async (s) => {
        const k = { instanceId: 'i1', guildId: G1, channelId: 'c1' };
        await s.modes.upsertMode({ ...k, mode: 'deep', startedAt: at(0), lastActiveAt: at(0) });
        await s.modes.upsertMode({
          instanceId: 'i2',
          guildId: G1,
          channelId: 'c2',
          mode: 'normal',
          startedAt: at(0),
          lastActiveAt: at(0),
        });
        expect(await s.modes.touchMode(k, at(600))).toBe(true);
        const active = await s.modes.listModes({ activeSince: at(300) });
        expect(active.map((m) => [m.instanceId, m.mode])).toEqual([['i1', 'deep']]);
        expect((await s.modes.listModes({ activeSince: at(0), instanceId: 'i2' })).length).toBe(1);
        expect(await s.modes.removeMode(k)).toBe(true);
        expect(await s.modes.removeMode(k)).toBe(false);
        expect(await s.modes.touchMode(k, at(700))).toBe(false);
      }));
  });
}
