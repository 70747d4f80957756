import { describe, expect, it } from 'vitest';
import type { MemoryStore } from '../../src/ports/memory-store.js';
import { StoreWaves } from '../../src/testing/store-waves.js';

// A store that answers at once: only the roles and methods the operations below call.
const inner = {
  facts: { get: async () => [], topStrength: async () => [] },
  graph: { relationsOf: async () => [] },
} as unknown as MemoryStore;

describe('StoreWaves', () => {
  it('counts calls issued together as one wave and a call after an answer as the next', async () => {
    const counter = new StoreWaves(inner);
    const s = counter.store;
    const together = await counter.measure(async () => {
      await Promise.all([s.facts.get('g', ['a']), s.graph.relationsOf('g', [], 1)]);
    });
    expect(together).toMatchObject({ calls: 2, waves: 1 });
    expect(together.byWave).toEqual([['facts.get', 'graph.relationsOf']]);
    const chained = await counter.measure(async () => {
      await s.facts.get('g', ['a']);
      await Promise.all([s.facts.topStrength({ guildId: 'g' }, 1), s.graph.relationsOf('g', [], 1)]);
      await s.facts.get('g', ['b']);
    });
    expect(chained).toMatchObject({ calls: 4, waves: 3 });
  });

  it('counts nothing outside measure and passes results and errors through', async () => {
    const failing = {
      facts: { get: async () => Promise.reject(new Error('down')) },
    } as unknown as MemoryStore;
    const counter = new StoreWaves(failing);
    await expect(counter.store.facts.get('g', ['a'])).rejects.toThrow('down');
    const out = await counter.measure(async () => {
      await counter.store.facts.get('g', ['a']).catch(() => undefined);
    });
    expect(out).toMatchObject({ calls: 1, waves: 1 });
  });
});
