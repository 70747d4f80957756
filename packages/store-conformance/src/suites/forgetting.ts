import type { SourceRef } from '@permafrost/core';
import { indexTerms } from '@permafrost/core/store';
import { describe, expect, it } from 'vitest';
import {
  at,
  type ConformanceOptions,
  G1,
  G2,
  makeFact,
  makeMessage,
  unitVector,
  vectorItem,
  withStore,
} from '../fixtures.js';

const source = (messageId: string, authorId = 'u1'): SourceRef => ({
  messageId,
  channelId: 'c1',
  authorId,
  authorName: 'U',
  snippet: `said in ${messageId}`,
  url: '',
  role: 'primary',
  createdAt: at(1),
});

/** The ports `forgetMessage` and purge fencing apply: citing facts, message deletion, the erasure log. */
export function forgettingSuite(o: ConformanceOptions): void {
  describe('forgetting', () => {
    it('finds every fact of a guild citing some messages, any validity, in id order', () =>
      withStore(o, async (s) => {
        const a = makeFact({ id: 'fa', sources: [source('m1'), source('m2')] });
        const b = makeFact({ id: 'fb', sources: [source('m2')], validUntil: at(5) });
        const c = makeFact({ id: 'fc', sources: [source('m3')] });
        const other = makeFact({ id: 'fd', guildId: G2, sources: [source('m2')] });
        await s.facts.insert([c, b, a, other]);
        expect((await s.facts.citing(G1, ['m2'])).map((f) => f.id)).toEqual(['fa', 'fb']);
        expect((await s.facts.citing(G1, ['m1', 'm3'])).map((f) => f.id)).toEqual(['fa', 'fc']);
        expect(await s.facts.citing(G1, ['nope'])).toEqual([]);
        expect(await s.facts.citing(G1, [])).toEqual([]);
      }));

    it('deletes messages of any status with their keyword rows and vectors', () =>
      withStore(o, async (s) => {
        const pending = makeMessage({ content: 'zebra crossing pending' });
        const done = makeMessage({ content: 'zebra crossing processed', status: 'processed' });
        const kept = makeMessage({ content: 'zebra crossing kept', status: 'processed' });
        await s.queue.enqueueMany([pending, done, kept], 100);
        await s.vectors.upsert([vectorItem(done.messageId, unitVector(1, 8), { kind: 'message' })]);
        expect(await s.conversation.deleteMessages(G1, [pending.messageId, done.messageId, 'missing'])).toBe(
          2,
        );
        expect(await s.conversation.deleteMessages(G2, [kept.messageId])).toBe(0);
        expect(
          (await s.conversation.getMessages(G1, [pending.messageId, done.messageId, kept.messageId])).map(
            (m) => m.messageId,
          ),
        ).toEqual([kept.messageId]);
        const hits = await s.conversation.searchText(G1, indexTerms('zebra'), 10);
        expect(hits.map((h) => h.message.messageId)).toEqual([kept.messageId]);
        expect((await s.queue.counts(G1)).pending).toBe(0);
        const near = await s.vectors.search({
          guildId: G1,
          kind: 'message',
          vector: unitVector(1, 8),
          limit: 5,
        });
        expect(near.map((h) => h.id)).not.toContain(done.messageId);
      }));

    it('numbers erasures per guild and lists those after a generation', () =>
      withStore(o, async (s) => {
        expect(await s.erasures.erasuresSince(G1, 0)).toEqual({ generation: 0, erasures: [] });
        expect(
          await s.erasures.recordErasure({ guildId: G1, userId: 'u1', messageId: null, at: at(1) }),
        ).toBe(1);
        expect(
          await s.erasures.recordErasure({ guildId: G2, userId: null, messageId: 'm9', at: at(2) }),
        ).toBe(1);
        expect(
          await s.erasures.recordErasure({ guildId: G1, userId: null, messageId: 'm1', at: at(3) }),
        ).toBe(2);
        const since = await s.erasures.erasuresSince(G1, 1);
        expect(since).toEqual({
          generation: 2,
          erasures: [{ generation: 2, userId: null, messageId: 'm1', at: at(3) }],
        });
        expect((await s.erasures.erasuresSince(G1, 0)).erasures.map((e) => e.userId)).toEqual(['u1', null]);
        expect(await s.erasures.pruneErasures(at(2.5))).toBe(2);
        expect(await s.erasures.erasuresSince(G1, 0)).toEqual({
          generation: 2,
          erasures: [{ generation: 2, userId: null, messageId: 'm1', at: at(3) }],
        });
        // The counter survives pruning: generations never repeat.
        expect(
          await s.erasures.recordErasure({ guildId: G2, userId: 'u2', messageId: null, at: at(4) }),
        ).toBe(2);
      }));

    it('gives concurrent erasures distinct generations', () =>
      withStore(o, async (s) => {
        const gens = await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            s.erasures.recordErasure({ guildId: G1, userId: `u${i}`, messageId: null, at: at(i) }),
          ),
        );
        expect([...gens].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
        expect((await s.erasures.erasuresSince(G1, 0)).erasures).toHaveLength(8);
      }));
  });
}
