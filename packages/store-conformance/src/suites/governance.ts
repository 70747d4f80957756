import { describe, expect, it } from 'vitest';
import { at, type ConformanceOptions, G1, G2, makeFact, withStore } from '../fixtures.js';
import { seedPurgeScene } from './purge-scene.js';

export function governanceSuite(o: ConformanceOptions): void {
  describe('governance', () => {
    it('sets, reads, lists and clears opt-outs per guild', () =>
      withStore(o, async (s) => {
        expect(await s.consent.isOptedOut(G1, 'u1')).toBe(false);
        await s.consent.setOptOut(G1, 'u1', true, at(0));
        await s.consent.setOptOut(G1, 'u2', true, at(0));
        expect(await s.consent.isOptedOut(G1, 'u1')).toBe(true);
        expect(await s.consent.isOptedOut(G2, 'u1')).toBe(false);
        expect(await s.consent.optedOutUsers(G1)).toEqual(['u1', 'u2']);
        await s.consent.setOptOut(G1, 'u1', false, at(1));
        expect(await s.consent.isOptedOut(G1, 'u1')).toBe(false);
      }));

    it('stores digests per subject and one for the server', () =>
      withStore(o, async (s) => {
        await s.digests.putDigest({
          guildId: G1,
          subjectId: 'u1',
          text: 'first',
          generatedAt: at(0),
          sourceFactCount: 5,
          channels: null,
        });
        await s.digests.putDigest({
          guildId: G1,
          subjectId: 'u1',
          text: 'second',
          generatedAt: at(9),
          sourceFactCount: 10,
          channels: [
            { channelId: 'c1', parentId: null },
            { channelId: 't1', parentId: 'c1' },
          ],
        });
        await s.digests.putDigest({
          guildId: G1,
          subjectId: null,
          text: 'server',
          generatedAt: at(9),
          sourceFactCount: 7,
          channels: null,
        });
        expect(await s.digests.getDigest(G1, 'u1')).toMatchObject({
          text: 'second',
          sourceFactCount: 10,
          channels: [
            { channelId: 'c1', parentId: null },
            { channelId: 't1', parentId: 'c1' },
          ],
        });
        expect(await s.digests.getDigest(G1, null)).toMatchObject({ text: 'server', channels: null });
        expect(await s.digests.getDigest(G2, 'u1')).toBeNull();
      }));

    it('keeps cursors, meta and token counters per guild and period', () =>
      withStore(o, async (s) => {
        await s.cursors.setCursor(G1, 'server_window', 'a|1');
        await s.cursors.setCursor(G1, 'server_window', 'b|2');
        expect(await s.cursors.getCursor(G1, 'server_window')).toBe('b|2');
        expect(await s.cursors.getCursor(G2, 'server_window')).toBeNull();
        await s.meta.setMeta('embedder', 'hashing-v1-256');
        expect(await s.meta.getMeta('embedder')).toBe('hashing-v1-256');
        expect(await s.meta.getMeta('missing')).toBeNull();
        await s.budgets.chargeTokens(G1, ['d:2026-08-24', 'm:2026-08'], 40);
        await s.budgets.chargeTokens(G1, ['d:2026-08-24', 'm:2026-08'], 15);
        await s.budgets.chargeTokens(G1, ['d:2026-08-25', 'm:2026-08'], 5);
        expect(await s.budgets.tokenUsage(G1, ['d:2026-08-24', 'm:2026-08', 'd:2026-08-26'])).toEqual({
          'd:2026-08-24': 55,
          'm:2026-08': 60,
          'd:2026-08-26': 0,
        });
        expect(await s.budgets.tokenUsage(G2, ['m:2026-08'])).toEqual({ 'm:2026-08': 0 });
      }));

    it('reports guild statistics and lists guilds', () =>
      withStore(o, async (s) => {
        await seedPurgeScene(s);
        await s.facts.insert([
          makeFact({ subjectId: null, text: 'server rule', tier: 'core' }),
          makeFact({ text: 'ended', validUntil: at(1) }),
        ]);
        const stats = await s.admin.guildStats(G1);
        expect(stats).toMatchObject({
          guildId: G1,
          totalFacts: 6,
          activeFacts: 5,
          users: 2,
          entities: 3,
          relations: 3,
          aliases: 1,
          pending: 2,
          processed: 1,
        });
        expect(stats.byScope).toEqual({ user: 4, server: 1 });
        expect(stats.byTier.core).toBe(1);
        expect(await s.admin.listGuildIds()).toEqual([G1, G2]);
      }));
  });
}
