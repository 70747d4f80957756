import { pruneConversation } from '@permafrost/core/internal';
import { SERVER_KEY } from '@permafrost/core/store';
import { describe, expect, it } from 'vitest';
import { at, type ConformanceOptions, G1, G2, makeMessage, withStore } from '../fixtures.js';

const LEASE = 120_000;
const due = (now: Date, o: { batchSize?: number; maxAge?: number; guildId?: string } = {}) => ({
  now,
  batchSize: o.batchSize ?? 3,
  olderThan: new Date(now.getTime() - (o.maxAge ?? 300) * 1000),
  limit: 100,
  ...(o.guildId ? { guildId: o.guildId } : {}),
});

export function queueSuite(o: ConformanceOptions): void {
  describe('queue', () => {
    it('accepts a message once and reports duplicates', () =>
      withStore(o, async (s) => {
        const m = makeMessage();
        expect(await s.queue.enqueue(m, 100)).toBe('accepted');
        expect(await s.queue.enqueue({ ...m, content: 'changed' }, 100)).toBe('duplicate');
        expect(await s.queue.enqueue({ ...m, guildId: G2 }, 100)).toBe('accepted');
        expect((await s.conversation.getMessages(G1, [m.messageId]))[0]?.content).toBe(m.content);
        expect(await s.queue.enqueueMany([makeMessage(), m], 100)).toEqual(['accepted', 'duplicate']);
      }));

    it('refuses new pending messages past the per-guild depth', () =>
      withStore(o, async (s) => {
        expect(await s.queue.enqueueMany([makeMessage(), makeMessage()], 2)).toEqual([
          'accepted',
          'accepted',
        ]);
        expect(await s.queue.enqueue(makeMessage(), 2)).toBe('over_capacity');
        expect(await s.queue.enqueue(makeMessage({ guildId: G2 }), 2)).toBe('accepted');
        expect((await s.queue.counts(G1)).pending).toBe(2);
      }));

    it('makes a key due by size or by age, oldest key first', () =>
      withStore(o, async (s) => {
        await s.queue.enqueueMany(
          [
            makeMessage({ authorId: 'u1', createdAt: at(1) }),
            makeMessage({ authorId: 'u1', createdAt: at(2) }),
            makeMessage({ authorId: 'u2', createdAt: at(3) }),
            makeMessage({ authorId: 'u1', createdAt: at(4) }),
          ],
          100,
        );
        expect(await s.queue.dueKeys(due(at(10)))).toEqual([{ guildId: G1, subjectKey: 'u1' }]);
        expect(await s.queue.dueKeys(due(at(10), { batchSize: 10 }))).toEqual([]);
        expect(await s.queue.dueKeys(due(at(2 + 300), { batchSize: 10 }))).toEqual([
          { guildId: G1, subjectKey: 'u1' },
        ]);
        expect(await s.queue.dueKeys(due(at(3 + 300), { batchSize: 10 }))).toEqual([
          { guildId: G1, subjectKey: 'u1' },
          { guildId: G1, subjectKey: 'u2' },
        ]);
        expect(await s.queue.dueKeys(due(at(400), { batchSize: 1, guildId: G2 }))).toEqual([]);
      }));

    it('claims atomically and exclusively; the owner may re-claim', () =>
      withStore(o, async (s) => {
        await s.queue.enqueueMany(
          Array.from({ length: 5 }, () => makeMessage({ authorId: 'u1' })),
          100,
        );
        const key = { guildId: G1, subjectKey: 'u1' };
        const first = await s.queue.claim({ key, owner: 'w1', now: at(10), leaseMs: LEASE, limit: 3 });
        expect(first.messages.map((m) => m.status)).toEqual(['claimed', 'claimed', 'claimed']);
        expect(first.messages.map((m) => m.createdAt.getTime())).toEqual(
          [...first.messages.map((m) => m.createdAt.getTime())].sort((a, b) => a - b),
        );
        const rival = await s.queue.claim({ key, owner: 'w2', now: at(11), leaseMs: LEASE, limit: 3 });
        expect(rival).toEqual({ messages: [], lockedByOther: true });
        expect(await s.queue.dueKeys(due(at(12), { batchSize: 1 }))).toEqual([]);
        const more = await s.queue.claim({ key, owner: 'w1', now: at(12), leaseMs: LEASE, limit: 10 });
        expect(more.messages).toHaveLength(2);
        expect(await s.queue.counts(G1)).toMatchObject({ pending: 0, claimed: 5 });
      }));

    it('returns expired claims to pending so another worker can take them', () =>
      withStore(o, async (s) => {
        await s.queue.enqueueMany([makeMessage({ authorId: 'u1' }), makeMessage({ authorId: 'u1' })], 100);
        const key = { guildId: G1, subjectKey: 'u1' };
        await s.queue.claim({ key, owner: 'w1', now: at(10), leaseMs: 30_000, limit: 10 });
        expect(await s.queue.releaseExpired(at(39))).toBe(0);
        expect(await s.queue.releaseExpired(at(41))).toBe(2);
        const taken = await s.queue.claim({ key, owner: 'w2', now: at(42), leaseMs: 30_000, limit: 10 });
        expect(taken.messages.map((m) => m.leaseOwner)).toEqual(['w2', 'w2']);
        expect(
          await s.queue.complete(
            G1,
            taken.messages.map((m) => m.messageId),
            'w1',
            at(43),
          ),
        ).toBe(0);
      }));

    it('renewing a lease keeps the claim past its first expiry', () =>
      withStore(o, async (s) => {
        await s.queue.enqueue(makeMessage({ authorId: 'u1' }), 100);
        const key = { guildId: G1, subjectKey: 'u1' };
        await s.queue.claim({ key, owner: 'w1', now: at(10), leaseMs: 30_000, limit: 10 });
        expect(await s.queue.renewLease(key, 'w1', at(30), 30_000)).toBe(true);
        expect(await s.queue.renewLease(key, 'w2', at(30), 30_000)).toBe(false);
        expect(await s.queue.releaseExpired(at(45))).toBe(0);
        expect(
          (await s.queue.claim({ key, owner: 'w2', now: at(45), leaseMs: 30_000, limit: 10 })).lockedByOther,
        ).toBe(true);
        expect(await s.queue.releaseExpired(at(61))).toBe(1);
      }));

    it('completes only its own claims and counts by status', () =>
      withStore(o, async (s) => {
        const msgs = [makeMessage({ authorId: 'u1' }), makeMessage({ authorId: 'u1' })];
        await s.queue.enqueueMany(msgs, 100);
        const key = { guildId: G1, subjectKey: 'u1' };
        const { messages } = await s.queue.claim({
          key,
          owner: 'w1',
          now: at(10),
          leaseMs: LEASE,
          limit: 10,
        });
        expect(
          await s.queue.complete(
            G1,
            messages.map((m) => m.messageId),
            'w1',
            at(11),
          ),
        ).toBe(2);
        await s.queue.releaseLease(key, 'w1');
        expect(await s.queue.counts(G1)).toEqual({ pending: 0, claimed: 0, processed: 2, dead: 0 });
        const [stored] = await s.conversation.getMessages(G1, [msgs[0]?.messageId as string]);
        expect(stored?.processedAt).toEqual(at(11));
        expect(await s.queue.dueKeys(due(at(1000), { batchSize: 1 }))).toEqual([]);
      }));

    it('completes the claims of several keys in one call and counts every row', () =>
      withStore(o, async (s) => {
        const authors = ['u1', 'u2', 'u3'];
        await s.queue.enqueueMany(
          authors.flatMap((a) => [makeMessage({ authorId: a }), makeMessage({ authorId: a })]),
          100,
        );
        const claimed: string[] = [];
        for (const a of authors) {
          const key = { guildId: G1, subjectKey: a };
          const { messages } = await s.queue.claim({
            key,
            owner: 'w1',
            now: at(10),
            leaseMs: LEASE,
            limit: 10,
          });
          claimed.push(...messages.map((m) => m.messageId));
        }
        // Another owner's claim in the same call is not completed and not counted.
        await s.queue.enqueue(makeMessage({ authorId: 'u4' }), 100);
        const rival = await s.queue.claim({
          key: { guildId: G1, subjectKey: 'u4' },
          owner: 'w2',
          now: at(10),
          leaseMs: LEASE,
          limit: 10,
        });
        const ids = [...claimed, ...rival.messages.map((m) => m.messageId)];
        expect(await s.queue.complete(G1, ids, 'w1', at(11))).toBe(6);
        expect(await s.queue.counts(G1)).toEqual({ pending: 0, claimed: 1, processed: 6, dead: 0 });
      }));

    it('retries failures with exponential backoff, then dead-letters', () =>
      withStore(o, async (s) => {
        await s.queue.enqueue(makeMessage({ authorId: 'u1' }), 100);
        const key = { guildId: G1, subjectKey: 'u1' };
        const fail = async (now: Date) => {
          const { messages } = await s.queue.claim({ key, owner: 'w1', now, leaseMs: LEASE, limit: 10 });
          expect(messages).toHaveLength(1);
          const r = await s.queue.fail(
            G1,
            messages.map((m) => m.messageId),
            { owner: 'w1', now, maxAttempts: 3, baseBackoffMs: 5000 },
          );
          await s.queue.releaseLease(key, 'w1');
          return r;
        };
        expect(await fail(at(100))).toEqual({ retrying: 1, dead: 0, attempts: 1 });
        expect(await s.queue.dueKeys(due(at(104), { batchSize: 1 }))).toEqual([]);
        expect(await s.queue.dueKeys(due(at(105), { batchSize: 1 }))).toEqual([key]);
        expect(await fail(at(105))).toEqual({ retrying: 1, dead: 0, attempts: 2 });
        expect(await s.queue.dueKeys(due(at(114), { batchSize: 1 }))).toEqual([]);
        expect(await fail(at(115))).toEqual({ retrying: 0, dead: 1, attempts: 3 });
        expect(await s.queue.counts(G1)).toMatchObject({ dead: 1, pending: 0 });
        expect(await s.queue.dueKeys(due(at(10_000), { batchSize: 1 }))).toEqual([]);
        expect(await s.queue.requeueDead(G2)).toBe(0);
        expect(await s.queue.requeueDead(G1)).toBe(1);
        const back = await s.queue.claim({ key, owner: 'w1', now: at(10_001), leaseMs: LEASE, limit: 10 });
        expect(back.messages[0]?.attempts).toBe(0);
      }));

    it('leases the community key without claiming and reads recent messages past a watermark', () =>
      withStore(o, async (s) => {
        const msgs = Array.from({ length: 6 }, (_, i) =>
          makeMessage({ authorId: `u${i % 2}`, status: i < 2 ? 'processed' : 'pending' }),
        );
        await s.queue.enqueueMany(msgs, 100);
        await s.queue.enqueue(makeMessage({ kind: 'reply', status: 'processed', authorId: 'bot' }), 100);
        const key = { guildId: G1, subjectKey: SERVER_KEY };
        expect(await s.queue.acquireLease({ key, owner: 'w1', now: at(100), leaseMs: LEASE })).toBe(true);
        expect(await s.queue.acquireLease({ key, owner: 'w2', now: at(101), leaseMs: LEASE })).toBe(false);
        const recent = await s.queue.recent(G1, { limit: 4 });
        expect(recent.map((m) => m.messageId)).toEqual(msgs.slice(2).map((m) => m.messageId));
        const third = msgs[2] as (typeof msgs)[number];
        const after = await s.queue.recent(G1, {
          limit: 100,
          after: { createdAt: third.createdAt, messageId: third.messageId },
        });
        expect(after.map((m) => m.messageId)).toEqual(msgs.slice(3).map((m) => m.messageId));
        expect((await s.queue.counts(G1)).pending).toBe(4);
        await s.queue.releaseLease(key, 'w1');
        expect(await s.queue.acquireLease({ key, owner: 'w2', now: at(102), leaseMs: LEASE })).toBe(true);
      }));

    it('never batches replies, session rows or hash-only messages', () =>
      withStore(o, async (s) => {
        await s.queue.enqueueMany(
          [
            makeMessage({ kind: 'reply', status: 'processed', authorId: 'bot' }),
            makeMessage({ kind: 'session', status: 'processed', authorId: 'user' }),
            makeMessage({ rawStored: false, content: 'ab12cd34', status: 'processed' }),
          ],
          100,
        );
        expect(await s.queue.dueKeys(due(at(100_000), { batchSize: 1 }))).toEqual([]);
        expect((await s.queue.counts(G1)).pending).toBe(0);
      }));

    it('records edits and prunes old processed rows', () =>
      withStore(o, async (s) => {
        const old = makeMessage({ status: 'processed', createdAt: at(0) });
        const fresh = makeMessage({ status: 'processed', createdAt: at(1000) });
        const pending = makeMessage({ createdAt: at(0) });
        await s.queue.enqueueMany([old, fresh, pending], 100);
        expect(await s.queue.markEdited(G1, pending.messageId, 'edited words', false)).toBe(true);
        expect(await s.queue.markEdited(G1, 'nope', 'x', false)).toBe(false);
        const [edited] = await s.conversation.getMessages(G1, [pending.messageId]);
        expect(edited).toMatchObject({ content: 'edited words', edited: true });
        expect(await pruneConversation(s, G1, { olderThan: at(500), maxPerChannel: 100 })).toBe(1);
        expect(
          (await s.conversation.getMessages(G1, [old.messageId, fresh.messageId, pending.messageId])).map(
            (m) => m.messageId,
          ),
        ).toEqual([fresh.messageId, pending.messageId]);
      }));
  });
}
