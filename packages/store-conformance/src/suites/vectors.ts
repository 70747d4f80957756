import { describe, expect, it } from 'vitest';
import {
  type ConformanceOptions,
  errorCode,
  G1,
  G2,
  unitVector,
  vectorItem,
  withStore,
} from '../fixtures.js';

const DIMS = 8;

function bruteForce(items: { id: string; vector: Float32Array }[], q: Float32Array, k: number) {
  return items
    .map((it) => {
      let s = 0;
      for (let i = 0; i < DIMS; i++) s += (it.vector[i] as number) * (q[i] as number);
      return { id: it.id, score: s };
    })
    .sort((a, b) => b.score - a.score)
    .slice(0, k);
}

export function vectorSuite(o: ConformanceOptions): void {
  describe('vectors', () => {
    it('returns the exact nearest neighbours over every stored vector (no recency cap)', () =>
      withStore(o, async (s) => {
        const items = Array.from({ length: 1200 }, (_, i) => ({
          id: `v${String(i).padStart(5, '0')}`,
          vector: unitVector(i + 1, DIMS),
        }));
        for (let i = 0; i < items.length; i += 300)
          await s.vectors.upsert(
            items.slice(i, i + 300).map((it) => vectorItem(it.id, it.vector, { subjectId: `u${i % 7}` })),
          );
        for (const seed of [5001, 5002, 5003]) {
          const q = unitVector(seed, DIMS);
          const want = bruteForce(items, q, 10);
          const got = await s.vectors.search({ kind: 'fact', guildId: G1, vector: q, limit: 10 });
          expect(got.map((h) => h.id)).toEqual(want.map((h) => h.id));
          for (const [i, h] of got.entries()) expect(h.score).toBeCloseTo(want[i]?.score ?? 0, 4);
        }
        const oldest = items[0] as { id: string; vector: Float32Array };
        const found = await s.vectors.search({ kind: 'fact', guildId: G1, vector: oldest.vector, limit: 1 });
        expect(found[0]?.id).toBe(oldest.id);
        expect(found[0]?.score).toBeCloseTo(1, 4);
      }));

    it('scopes by subjects, server items and activity', () =>
      withStore(o, async (s) => {
        const q = unitVector(1, DIMS);
        await s.vectors.upsert([
          vectorItem('a', unitVector(1, DIMS), { subjectId: 'u1' }),
          vectorItem('b', unitVector(2, DIMS), { subjectId: 'u2' }),
          vectorItem('srv', unitVector(3, DIMS), { subjectId: null }),
          vectorItem('old', unitVector(4, DIMS), { subjectId: 'u1', active: false }),
        ]);
        const ids = async (extra: object) =>
          (await s.vectors.search({ kind: 'fact', guildId: G1, vector: q, limit: 10, ...extra }))
            .map((h) => h.id)
            .sort();
        expect(await ids({ subjectIds: ['u1'] })).toEqual(['a']);
        expect(await ids({ subjectIds: ['u1'], includeServer: true })).toEqual(['a', 'srv']);
        expect(await ids({ serverOnly: true })).toEqual(['srv']);
        expect(await ids({ subjectIds: ['u1'], activeOnly: false })).toEqual(['a', 'old']);
        expect(await ids({})).toEqual(['a', 'b', 'srv']);
        expect(await s.vectors.setActive(G1, 'fact', ['a', 'missing'], false)).toBe(1);
        expect(await ids({ subjectIds: ['u1'] })).toEqual([]);
        await s.vectors.setActive(G1, 'fact', ['old'], true);
        expect(await ids({ subjectIds: ['u1'] })).toEqual(['old']);
      }));

    it('is exact within any set of members, with and without server items', () =>
      withStore(o, async (s) => {
        const subjectOf = (i: number) => (i % 9 === 0 ? null : `m${i % 41}`);
        const items = Array.from({ length: 900 }, (_, i) => ({
          id: `w${String(i).padStart(4, '0')}`,
          vector: unitVector(7000 + i, DIMS),
          subjectId: subjectOf(i),
          active: i % 13 !== 0,
        }));
        await s.vectors.upsert(items.map((it) => vectorItem(it.id, it.vector, it)));
        const scopes = [
          { subjectIds: ['m1'] },
          { subjectIds: ['m2', 'm19', 'm33'] },
          { subjectIds: ['m5', 'm6'], includeServer: true },
          { subjectIds: Array.from({ length: 41 }, (_, i) => `m${i}`) },
          { serverOnly: true },
          { subjectIds: ['m7', 'nobody'], activeOnly: false },
        ];
        for (const [n, scope] of scopes.entries()) {
          const subjects = new Set<string | null>(scope.subjectIds ?? []);
          if ('includeServer' in scope || 'serverOnly' in scope) subjects.add(null);
          const inScope = items.filter(
            (it) => subjects.has(it.subjectId) && (it.active || 'activeOnly' in scope),
          );
          const q = unitVector(9100 + n, DIMS);
          const got = await s.vectors.search({ kind: 'fact', guildId: G1, vector: q, limit: 12, ...scope });
          expect(got.map((h) => h.id)).toEqual(bruteForce(inScope, q, 12).map((h) => h.id));
        }
      }));

    it('moves a vector with its subject on upsert', () =>
      withStore(o, async (s) => {
        const v = unitVector(3, DIMS);
        const ids = async (extra: object) =>
          (await s.vectors.search({ kind: 'fact', guildId: G1, vector: v, limit: 5, ...extra })).map(
            (h) => h.id,
          );
        await s.vectors.upsert([
          vectorItem('x', v, { subjectId: 'u1' }),
          vectorItem('y', v, { subjectId: null }),
        ]);
        for (let i = 2; i < 40; i++) await s.vectors.upsert([vectorItem('x', v, { subjectId: `u${i}` })]);
        expect(await ids({ subjectIds: ['u1'] })).toEqual([]);
        expect(await ids({ subjectIds: ['u39'] })).toEqual(['x']);
        await s.vectors.upsert([
          vectorItem('x', v, { subjectId: null }),
          vectorItem('y', v, { subjectId: 'u2' }),
        ]);
        expect(await ids({ serverOnly: true })).toEqual(['x']);
        expect(await ids({ subjectIds: ['u39'] })).toEqual([]);
        expect(await ids({ subjectIds: ['u2'] })).toEqual(['y']);
        expect(await s.vectors.count(G1, 'fact')).toBe(2);
      }));

    it('replaces on upsert and deletes by id, per kind and guild', () =>
      withStore(o, async (s) => {
        const v1 = unitVector(1, DIMS);
        const v2 = unitVector(2, DIMS);
        await s.vectors.upsert([
          vectorItem('x', v1),
          vectorItem('x', v1, { kind: 'message' }),
          vectorItem('x', v1, { guildId: G2 }),
        ]);
        await s.vectors.upsert([vectorItem('x', v2)]);
        const [hit] = await s.vectors.search({ kind: 'fact', guildId: G1, vector: v2, limit: 1 });
        expect(hit?.score).toBeCloseTo(1, 4);
        expect(await s.vectors.count(G1, 'fact')).toBe(1);
        expect(await s.vectors.count(G1, 'message')).toBe(1);
        expect(await s.vectors.count(G1, 'fact', ['x', 'y', 'x'])).toBe(1);
        expect(await s.vectors.count(G1, 'message', ['x'])).toBe(1);
        expect(await s.vectors.count(G2, 'fact', ['x'])).toBe(1);
        expect(await s.vectors.count(G2, 'message', ['x'])).toBe(0);
        expect(await s.vectors.count(G1, 'fact', [])).toBe(0);
        expect(await s.vectors.delete(G1, 'fact', ['x', 'y'])).toBe(1);
        expect(await s.vectors.count(G1, 'fact')).toBe(0);
        expect(await s.vectors.count(G1, 'message')).toBe(1);
        expect(
          (await s.vectors.search({ kind: 'fact', guildId: G2, vector: v1, limit: 5 })).map((h) => h.id),
        ).toEqual(['x']);
        expect(await s.vectors.search({ kind: 'fact', guildId: G1, vector: v1, limit: 5 })).toEqual([]);
      }));

    it('rejects a vector of other dimensions with DIMENSION_MISMATCH', () =>
      withStore(o, async (s) => {
        await s.vectors.upsert([vectorItem('a', unitVector(1, DIMS))]);
        expect(await errorCode(s.vectors.upsert([vectorItem('b', unitVector(1, DIMS * 2))]))).toBe(
          'DIMENSION_MISMATCH',
        );
        expect(
          await errorCode(
            s.vectors.search({ kind: 'fact', guildId: G1, vector: unitVector(1, DIMS * 2), limit: 1 }),
          ),
        ).toBe('DIMENSION_MISMATCH');
        expect(await s.vectors.count(G1, 'fact')).toBe(1);
      }));
  });
}
