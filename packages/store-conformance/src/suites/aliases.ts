import type { Alias } from '@permafrost/core';
import { describe, expect, it } from 'vitest';
import { at, type ConformanceOptions, G1, G2, withStore } from '../fixtures.js';

const alias = (o: Partial<Alias>): Alias => ({
  guildId: G1,
  alias: 'alice',
  userId: 'u1',
  source: 'display_name',
  weight: 0.7,
  updatedAt: at(0),
  ...o,
});

export function aliasSuite(o: ConformanceOptions): void {
  describe('aliases', () => {
    it('finds an exact alias, heaviest first', () =>
      withStore(o, async (s) => {
        await s.aliases.upsert(alias({ userId: 'u1', weight: 0.7 }));
        await s.aliases.upsert(alias({ userId: 'u9', weight: 0.9, source: 'real_name' }));
        const found = await s.aliases.find(G1, 'alice', 8);
        expect(found.map((a) => [a.userId, a.weight])).toEqual([
          ['u9', 0.9],
          ['u1', 0.7],
        ]);
        expect(await s.aliases.find(G1, 'alic', 8)).toEqual([]);
      }));

    it('finds several aliases in one read, each list as find returns it', () =>
      withStore(o, async (s) => {
        await s.aliases.upsert(alias({ userId: 'u1', weight: 0.7 }));
        await s.aliases.upsert(alias({ userId: 'u9', weight: 0.9, source: 'real_name' }));
        await s.aliases.upsert(alias({ userId: 'u3', weight: 0.5, source: 'mention' }));
        await s.aliases.upsert(alias({ alias: 'bob', userId: 'u2', weight: 0.8 }));
        await s.aliases.upsert(alias({ alias: 'al%', userId: 'u4' }));
        await s.aliases.upsert(alias({ guildId: G2, userId: 'u7' }));
        const many = await s.aliases.findMany(G1, ['alice', 'bob', 'carol', 'alice', 'al_', 'ali'], 2);
        expect([...many.keys()].sort()).toEqual(['alice', 'bob']);
        expect(many.get('alice')?.map((a) => a.userId)).toEqual(['u9', 'u1']);
        expect(many.get('alice')).toEqual(await s.aliases.find(G1, 'alice', 2));
        expect(many.get('bob')).toEqual(await s.aliases.find(G1, 'bob', 2));
        expect((await s.aliases.findMany(G1, ['alice'], 8)).get('alice')?.map((a) => a.userId)).toEqual([
          'u9',
          'u1',
          'u3',
        ]);
        expect(
          (await s.aliases.findMany(G2, ['alice', 'bob'], 8)).get('alice')?.map((a) => a.userId),
        ).toEqual(['u7']);
        expect((await s.aliases.findMany(G1, [], 8)).size).toBe(0);
      }));

    it('keeps the maximum weight on upsert and refreshes updatedAt', () =>
      withStore(o, async (s) => {
        await s.aliases.upsert(alias({ alias: 'bob', userId: 'u2', weight: 0.9, source: 'real_name' }));
        await s.aliases.upsert(
          alias({ alias: 'bob', userId: 'u2', weight: 0.5, source: 'mention', updatedAt: at(30) }),
        );
        const [a] = await s.aliases.find(G1, 'bob', 8);
        expect(a).toMatchObject({ weight: 0.9, source: 'real_name' });
        expect(a?.updatedAt).toEqual(at(30));
        await s.aliases.upsert(
          alias({ alias: 'bob', userId: 'u2', weight: 1, source: 'discord_username', updatedAt: at(40) }),
        );
        expect((await s.aliases.find(G1, 'bob', 8))[0]).toMatchObject({
          weight: 1,
          source: 'discord_username',
        });
      }));

    it('looks up by prefix, treating the prefix as literal text', () =>
      withStore(o, async (s) => {
        await s.aliases.upsert(alias({ alias: 'charlotte', userId: 'u3', weight: 0.85 }));
        await s.aliases.upsert(alias({ alias: 'charlie', userId: 'u4', weight: 0.7 }));
        await s.aliases.upsert(alias({ alias: 'x_y%z', userId: 'u5' }));
        expect((await s.aliases.findByPrefix(G1, 'charl', 8)).map((a) => a.userId)).toEqual(['u3', 'u4']);
        expect((await s.aliases.findByPrefix(G1, 'charlo', 8)).map((a) => a.userId)).toEqual(['u3']);
        expect(await s.aliases.findByPrefix(G1, '%', 8)).toEqual([]);
        expect(await s.aliases.findByPrefix(G1, '_', 8)).toEqual([]);
        expect(await s.aliases.findByPrefix(G1, '.*', 8)).toEqual([]);
        expect((await s.aliases.findByPrefix(G1, 'x_y%', 8)).map((a) => a.userId)).toEqual(['u5']);
      }));

    it('lists every alias of a user and is scoped to the guild', () =>
      withStore(o, async (s) => {
        await s.aliases.upsert(alias({ alias: 'alice', weight: 0.7 }));
        await s.aliases.upsert(alias({ alias: 'ally', weight: 0.85, source: 'real_name' }));
        await s.aliases.upsert(alias({ guildId: G2, alias: 'alice-g2' }));
        expect((await s.aliases.aliasesOf(G1, 'u1')).map((a) => a.alias)).toEqual(['ally', 'alice']);
        expect(await s.aliases.find(G2, 'alice', 8)).toEqual([]);
        expect(await s.aliases.findByPrefix(G2, 'al', 8).then((r) => r.map((a) => a.alias))).toEqual([
          'alice-g2',
        ]);
      }));
  });
}
