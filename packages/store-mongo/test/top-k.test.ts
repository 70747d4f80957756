import { describe, expect, it } from 'vitest';
import { TopK } from '../src/top-k.js';

describe('TopK (bounded selection of the in-process vector scan)', () => {
  it('keeps exactly what a full sort would, ties broken by id, for every k', () => {
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let round = 0; round < 200; round++) {
      const n = Math.floor(rand() * 60);
      // Few distinct scores, so ties are common.
      const hits = Array.from({ length: n }, (_, i) => ({
        id: `v${(i * 7919) % 101}-${i}`,
        score: Math.floor(rand() * 5) / 4,
      }));
      const k = Math.floor(rand() * 12);
      const top = new TopK(k);
      for (const h of hits) top.offer(h);
      const expected = [...hits].sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1)).slice(0, k);
      expect(top.sorted()).toEqual(expected);
    }
  });
});
