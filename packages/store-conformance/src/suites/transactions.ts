import { describe, expect, it } from 'vitest';
import {
  at,
  type ConformanceOptions,
  G1,
  makeFact,
  makeLink,
  unitVector,
  vectorItem,
  withStore,
} from '../fixtures.js';

class Boom extends Error {}

export function transactionSuite(o: ConformanceOptions): void {
  describe('transactions', () => {
    it('commits every write made inside a transaction', () =>
      withStore(o, async (s) => {
        const f = makeFact();
        const result = await s.transaction(async () => {
          await s.facts.insert([f]);
          await s.graph.addLinks([makeLink(f)]);
          return 'done';
        });
        expect(result).toBe('done');
        expect((await s.facts.get(G1, [f.id])).length).toBe(1);
        expect((await s.graph.linksForFacts(G1, [f.id])).length).toBe(1);
      }));

    it('a failing atomic transaction leaves nothing behind, across every port', async (ctx) => {
      await withStore(o, async (s) => {
        if (s.capabilities.transactions !== 'atomic') {
          ctx.annotate(`${s.name} declares ordered (non-atomic) transactions`);
          return;
        }
        const f = makeFact({ text: 'rolled back fact' });
        await expect(
          s.transaction(async () => {
            await s.facts.insert([f]);
            await s.facts.appendHistory([
              {
                guildId: G1,
                factId: f.id,
                at: at(0),
                kind: 'created',
                detail: '',
                previousText: null,
                actorId: null,
                version: 1,
              },
            ]);
            await s.vectors.upsert([vectorItem(f.id, unitVector(3, 8))]);
            await s.graph.addLinks([makeLink(f)]);
            await s.graph.upsertRelation({
              guildId: G1,
              src: { type: 'user', id: 'u1' },
              dst: { type: 'entity', id: 'x' },
              verb: 'likes',
              polarity: 'positive',
              confidence: 1,
              evidenceFactId: f.id,
              at: at(0),
            });
            await s.aliases.upsert({
              guildId: G1,
              alias: 'ghost',
              userId: 'u1',
              source: 'manual',
              weight: 0.8,
              updatedAt: at(0),
            });
            await s.cursors.setCursor(G1, 'k', 'v');
            throw new Boom('fail at the end');
          }),
        ).rejects.toBeInstanceOf(Boom);
        expect(await s.facts.get(G1, [f.id])).toEqual([]);
        expect(await s.facts.history(G1, f.id)).toEqual([]);
        expect(await s.vectors.count(G1, 'fact')).toBe(0);
        expect(await s.graph.linksForFacts(G1, [f.id])).toEqual([]);
        expect(await s.graph.relationsOf(G1, [{ type: 'user', id: 'u1' }], 10)).toEqual([]);
        expect(await s.aliases.find(G1, 'ghost', 8)).toEqual([]);
        expect(await s.cursors.getCursor(G1, 'k')).toBeNull();
        expect(await s.facts.searchText({ guildId: G1, validity: 'any' }, ['roll'], 5)).toEqual([]);
      });
    });

    it('nested scopes join the outer transaction', async (ctx) => {
      await withStore(o, async (s) => {
        if (s.capabilities.transactions !== 'atomic') {
          ctx.annotate(`${s.name} declares ordered (non-atomic) transactions`);
          return;
        }
        const outer = makeFact({ text: 'outer' });
        const inner = makeFact({ text: 'inner' });
        await expect(
          s.transaction(async () => {
            await s.facts.insert([outer]);
            await s.transaction(async () => {
              await s.facts.insert([inner]);
            });
            throw new Boom('after inner');
          }),
        ).rejects.toBeInstanceOf(Boom);
        expect(await s.facts.get(G1, [outer.id, inner.id])).toEqual([]);
      });
    });

    it('serialises concurrent transactions without losing writes', () =>
      withStore(o, async (s) => {
        const facts = Array.from({ length: 20 }, (_, i) => makeFact({ text: `concurrent ${i}` }));
        await Promise.all(
          facts.map((f) =>
            s.transaction(async () => {
              await s.facts.insert([f]);
              await s.graph.addLinks([makeLink(f)]);
            }),
          ),
        );
        expect(
          (
            await s.facts.get(
              G1,
              facts.map((f) => f.id),
            )
          ).length,
        ).toBe(20);
        expect(
          (
            await s.graph.linksForFacts(
              G1,
              facts.map((f) => f.id),
            )
          ).length,
        ).toBe(20);
      }));

    it('reads inside a transaction see its own writes', () =>
      withStore(o, async (s) => {
        const f = makeFact({ text: 'visible inside' });
        const seen = await s.transaction(async () => {
          await s.facts.insert([f]);
          return (await s.facts.get(G1, [f.id])).length;
        });
        expect(seen).toBe(1);
      }));
  });
}
