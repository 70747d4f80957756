import { pruneConversation } from '@permafrost/core/internal';
import { describe, expect, it } from 'vitest';
import { at, type ConformanceOptions, G1, G2, makeMessage, withStore } from '../fixtures.js';

export function retentionSuite(o: ConformanceOptions): void {
  describe('conversation retention (core decides, store deletes)', () => {
    it('lists message rows oldest first, narrowed and paged by position', () =>
      withStore(o, async (s) => {
        const a = makeMessage({ channelId: 'c1', authorId: 'u1', createdAt: at(10) });
        const b = makeMessage({ channelId: 'c2', authorId: 'u2', createdAt: at(10), status: 'processed' });
        const c = makeMessage({ channelId: 'c1', authorId: 'u2', createdAt: at(20) });
        const d = makeMessage({ channelId: 'c1', authorId: 'u1', createdAt: at(30), status: 'processed' });
        await s.queue.enqueueMany([d, c, b, a, makeMessage({ guildId: G2, createdAt: at(1) })], 100);
        const ids = (rows: readonly { messageId: string }[]) => rows.map((m) => m.messageId);
        const all = await s.conversation.listMessages(G1, { limit: 10 });
        expect(ids(all)).toEqual(ids([a, b, c, d]));
        expect(all.map((m) => m.status)).toEqual(['pending', 'processed', 'pending', 'processed']);
        const first = await s.conversation.listMessages(G1, { limit: 2 });
        const last = first[first.length - 1];
        expect(ids(first)).toEqual(ids([a, b]));
        const next = await s.conversation.listMessages(G1, {
          limit: 2,
          after: { createdAt: last?.createdAt ?? at(0), messageId: last?.messageId ?? '' },
        });
        expect(ids(next)).toEqual(ids([c, d]));
        expect(ids(await s.conversation.listMessages(G1, { limit: 10, channelId: 'c1' }))).toEqual(
          ids([a, c, d]),
        );
        expect(ids(await s.conversation.listMessages(G1, { limit: 10, authorId: 'u2' }))).toEqual(
          ids([b, c]),
        );
        expect(ids(await s.conversation.listMessages(G1, { limit: 10, createdBefore: at(20) }))).toEqual(
          ids([a, b]),
        );
        expect(await s.conversation.listMessages(G1, { limit: 0 })).toEqual([]);
        const counts = await s.conversation.channelCounts(G1);
        expect([...counts].sort((x, y) => (x.channelId < y.channelId ? -1 : 1))).toEqual([
          { channelId: 'c1', count: 3 },
          { channelId: 'c2', count: 1 },
        ]);
        expect(await s.conversation.channelCounts('nobody')).toEqual([]);
      }));

    it('prunes by age and per-channel cap, never pending rows', () =>
      withStore(o, async (s) => {
        const old = makeMessage({ status: 'processed', createdAt: at(1) });
        const oldPending = makeMessage({ createdAt: at(2) });
        const recent = Array.from({ length: 4 }, (_, i) =>
          makeMessage({ status: 'processed', createdAt: at(1000 + i) }),
        );
        await s.queue.enqueueMany([old, oldPending, ...recent], 100);
        const removed = await pruneConversation(s, G1, { olderThan: at(500), maxPerChannel: 3 });
        const left = await s.conversation.channelHistory(G1, 'c1', { limit: 100 });
        expect(left.map((m) => m.messageId)).toEqual([
          oldPending.messageId,
          ...recent.slice(2).map((m) => m.messageId),
        ]);
        expect(removed).toBe(3);
      }));

    it('keeps pending and claimed rows over the cap, per channel, across pages', () =>
      withStore(o, async (s) => {
        // Cap 4. c1: 3 pending among 8 rows → its 4 oldest processed rows go, the pending ones stay;
        // c2 fits; c3: its oldest row is claimed (kept), so the next oldest goes.
        const c1 = Array.from({ length: 8 }, (_, i) =>
          makeMessage({
            channelId: 'c1',
            createdAt: at(100 + i),
            status: i % 3 === 0 ? 'pending' : 'processed',
          }),
        );
        const c2 = Array.from({ length: 3 }, (_, i) =>
          makeMessage({ channelId: 'c2', createdAt: at(100 + i), status: 'processed' }),
        );
        const claimed = makeMessage({ channelId: 'c3', authorId: 'u9', createdAt: at(100) });
        const c3 = Array.from({ length: 4 }, (_, i) =>
          makeMessage({ channelId: 'c3', authorId: 'u9', createdAt: at(200 + i), status: 'processed' }),
        );
        await s.queue.enqueueMany([...c1, ...c2, claimed, ...c3], 100);
        const lease = await s.queue.claim({
          key: { guildId: G1, subjectKey: 'u9' },
          owner: 'w1',
          now: at(300),
          leaseMs: 60_000,
          limit: 1,
        });
        expect(lease.messages.map((m) => m.messageId)).toEqual([claimed.messageId]);
        const removed = await pruneConversation(s, G1, { olderThan: at(0), maxPerChannel: 4 }, 2);
        const left = async (channelId: string) =>
          (await s.conversation.channelHistory(G1, channelId, { limit: 100 })).map((m) => m.messageId);
        expect(await left('c1')).toEqual([c1[0], c1[3], c1[6], c1[7]].map((m) => m?.messageId));
        expect(await left('c2')).toEqual(c2.map((m) => m.messageId));
        expect(await left('c3')).toEqual([claimed, ...c3.slice(1)].map((m) => m.messageId));
        expect(removed).toBe(4 + 1);
      }));
  });
}
