import { describe, expect, it } from 'vitest';
import { type ConformanceOptions, G1, makeMessage, withStore } from '../fixtures.js';

/** A consent answer that arrives later, as core's read does when it runs beside the enqueue. */
function later<T>(value: T | Error): Promise<T> {
  return new Promise<T>((resolve, reject) =>
    setTimeout(() => (value instanceof Error ? reject(value) : resolve(value)), 20),
  );
}

/** `enqueue(message, maxDepth, { admitted })`: the row is stored only once consent is granted. */
export function queueAdmissionSuite(o: ConformanceOptions): void {
  describe('enqueue held back by consent', () => {
    it('stores the row once admitted resolves true', () =>
      withStore(o, async (s) => {
        const m = makeMessage();
        expect(await s.queue.enqueue(m, 100, { admitted: later(true) })).toBe('accepted');
        expect((await s.conversation.getMessages(G1, [m.messageId])).map((x) => x.content)).toEqual([
          m.content,
        ]);
        expect((await s.queue.counts(G1)).pending).toBe(1);
      }));

    it('withholds the row, leaving nothing behind, when admitted resolves false', () =>
      withStore(o, async (s) => {
        const m = makeMessage();
        expect(await s.queue.enqueue(m, 100, { admitted: later(false) })).toBe('withheld');
        expect(await s.conversation.getMessages(G1, [m.messageId])).toEqual([]);
        expect((await s.queue.counts(G1)).pending).toBe(0);
        // No leftover bookkeeping: the same message enqueued later is new, and the depth is free.
        expect(await s.queue.enqueue(m, 1)).toBe('accepted');
      }));

    it('leaves an existing row untouched when admitted resolves false', () =>
      withStore(o, async (s) => {
        const m = makeMessage();
        expect(await s.queue.enqueue(m, 100)).toBe('accepted');
        const edit = { ...m, content: 'rewritten' };
        expect(await s.queue.enqueue(edit, 100, { admitted: later(false) })).toBe('withheld');
        expect((await s.conversation.getMessages(G1, [m.messageId])).map((x) => x.content)).toEqual([
          m.content,
        ]);
        expect((await s.queue.counts(G1)).pending).toBe(1);
      }));

    it('rejects with the consent error and stores nothing when admitted rejects', () =>
      withStore(o, async (s) => {
        const m = makeMessage();
        const failure = new Error('consent read failed');
        await expect(s.queue.enqueue(m, 100, { admitted: later<boolean>(failure) })).rejects.toBe(failure);
        expect(await s.conversation.getMessages(G1, [m.messageId])).toEqual([]);
        expect((await s.queue.counts(G1)).pending).toBe(0);
        expect(await s.queue.enqueue(m, 1)).toBe('accepted');
      }));
  });
}
