import { describe, expect, it } from 'vitest';
import { rerankTop } from '../../src/recall/rerank.js';

describe('rerankTop', () => {
  const items = ['a', 'b', 'c', 'd'];
  it('reorders the pool and keeps the rest', async () => {
    const out = await rerankTop(
      { id: 'r', score: async (_q, docs) => docs.map((d) => (d === 'b' ? 9 : 1)) },
      'q',
      items,
      (x) => x,
      3,
      100,
    );
    expect(out.items).toEqual(['b', 'a', 'c', 'd']);
    expect(out.scores).toEqual([9, 1, 1, null]);
    expect(out.failed).toBe(false);
  });

  it('times out, aborts the reranker and keeps the order', async () => {
    let aborted = false;
    const slow = {
      id: 'slow',
      score: (_q: string, docs: readonly string[], signal?: AbortSignal) =>
        new Promise<number[]>((resolve) => {
          signal?.addEventListener('abort', () => {
            aborted = true;
          });
          setTimeout(() => resolve(docs.map(() => 1)), 1_000);
        }),
    };
    const out = await rerankTop(slow, 'q', items, (x) => x, 4, 20);
    expect(out.failed).toBe(true);
    expect(aborted).toBe(true);
    expect(out.items).toEqual(items);
  });

  it('fails safe on errors and wrong arity', async () => {
    const bad = await rerankTop(
      { id: 'x', score: async () => Promise.reject(new Error('down')) },
      'q',
      items,
      (x) => x,
      4,
      100,
    );
    expect(bad).toMatchObject({ failed: true, items });
    const short = await rerankTop({ id: 'x', score: async () => [1] }, 'q', items, (x) => x, 4, 100);
    expect(short.failed).toBe(true);
  });
});
