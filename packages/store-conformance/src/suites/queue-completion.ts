import type { MemoryStore } from '@permafrost/core';
import { describe, expect, it } from 'vitest';
import { at, type ConformanceOptions, G1, makeMessage, withStore } from '../fixtures.js';

const LEASE = 120_000;

/** A promise settled by the test, standing for the batch's writes still in flight. */
function pending(): { promise: Promise<void>; resolve(): void; reject(error: Error): void } {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Gives a store time to send whatever it would send before the batch's writes land. */
const pause = () => new Promise((resolve) => setTimeout(resolve, 50));

/** `complete(…, { after })`: nothing is marked processed before the batch's writes have landed. */
export function queueCompletionSuite(o: ConformanceOptions): void {
  describe('complete held back by the batch writes', () => {
    const claimTwo = async (s: MemoryStore) => {
      await s.queue.enqueueMany([makeMessage({ authorId: 'u1' }), makeMessage({ authorId: 'u1' })], 100);
      const key = { guildId: G1, subjectKey: 'u1' };
      const { messages } = await s.queue.claim({ key, owner: 'w1', now: at(10), leaseMs: LEASE, limit: 10 });
      expect(messages).toHaveLength(2);
      return messages.map((m) => m.messageId);
    };

    it('marks nothing until after resolves, then completes the claim', () =>
      withStore(o, async (s) => {
        const ids = await claimTwo(s);
        const writes = pending();
        let settled = false;
        const done = s.queue.complete(G1, ids, 'w1', at(11), { after: writes.promise }).finally(() => {
          settled = true;
        });
        await pause();
        expect(settled).toBe(false);
        expect(await s.queue.counts(G1)).toMatchObject({ claimed: 2, processed: 0 });
        writes.resolve();
        expect(await done).toBe(2);
        expect(await s.queue.counts(G1)).toMatchObject({ claimed: 0, processed: 2 });
      }));

    it('rejects with the error of after and leaves the claim as it was', () =>
      withStore(o, async (s) => {
        const ids = await claimTwo(s);
        const writes = pending();
        const done = s.queue.complete(G1, ids, 'w1', at(11), { after: writes.promise });
        await pause();
        const failure = new Error('the batch writes failed');
        writes.reject(failure);
        await expect(done).rejects.toBe(failure);
        expect(await s.queue.counts(G1)).toMatchObject({ claimed: 2, processed: 0 });
        // The claim is intact: its owner completes it later.
        expect(await s.queue.complete(G1, ids, 'w1', at(12))).toBe(2);
      }));
  });
}
