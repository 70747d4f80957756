import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assembleDots, dotsModuleSource } from '../../../scripts/wasm.mjs';
import { DOTS_WASM_BASE64 } from '../src/vector-scan/dots-wasm.js';
import { COARSE_MIN_ROWS, dotsModule, GuildMatrix } from '../src/vector-scan/guild-matrix.js';
import { topSlots } from '../src/vector-scan/top-slots.js';

describe('the dots module', () => {
  it('is the assembly of wasm/dots.wat (run node scripts/wasm.mjs after editing it)', async () => {
    const base64 = await assembleDots();
    expect(DOTS_WASM_BASE64).toBe(base64);
    const generated = readFileSync(join(import.meta.dirname, '../src/vector-scan/dots-wasm.ts'), 'utf8');
    expect(generated).toBe(dotsModuleSource(base64));
  });

  it('compiles on this runtime and gives the dot product of every row, rows padded to its stride', () => {
    const module = dotsModule();
    expect(module).not.toBeNull();
    const matrix = new GuildMatrix(module as NonNullable<typeof module>, 3, 4);
    matrix.set(1, 'x', Float32Array.of(3, 0, 0));
    matrix.set(2, 'y', Float32Array.of(0, 2, 0));
    matrix.set(3, 'xy', Float32Array.of(1, 1, 0));
    matrix.set(4, 'zero', Float32Array.of(0, 0, 0));
    const hits = matrix.nearest(Float32Array.of(2, 0, 0), 10);
    expect(hits.map(([id]) => id)).toEqual(['x', 'xy', 'y', 'zero']);
    expect(hits.map(([, s]) => s)).toEqual([1, expect.closeTo(Math.SQRT1_2, 6), 0, 0]);
    // Removing a row moves the last one into its slot; growing past the first capacity keeps rows.
    matrix.remove(1);
    for (let i = 0; i < 600; i++) matrix.set(100 + i, `far-${i}`, Float32Array.of(0, 0, 1));
    expect(matrix.size).toBe(603);
    expect(matrix.nearest(Float32Array.of(1, 0.01, 0), 2).map(([id]) => id)).toEqual(['xy', 'y']);
  });

  it('picks the k highest scores, best first, ties in slot order', () => {
    const scores = Float32Array.of(0.1, 0.9, -0.5, 0.9, 0.3, 0.7);
    expect(topSlots(scores, 3)).toEqual([1, 3, 5]);
    expect(topSlots(scores, 10)).toEqual([1, 3, 5, 4, 0, 2]);
    expect(topSlots(scores, 0)).toEqual([]);
    // Ties at the cut keep the earlier slots, whatever order they arrive in the heap.
    expect(topSlots(Float32Array.of(0.5, 0.9, 0.5, 0.5, 0.9, 0.5, 0.2), 3)).toEqual([1, 4, 0]);
    // Against a full sort, on scores drawn from five values (many ties), for every k.
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const many = Float32Array.from({ length: 200 }, () => Math.floor(next() * 5) / 4);
    const sorted = Array.from(many.keys()).sort((a, b) => (many[b] as number) - (many[a] as number) || a - b);
    for (const k of [1, 2, 7, 50, 199, 200, 300]) expect(topSlots(many, k)).toEqual(sorted.slice(0, k));
  });

  it('answers a big matrix in two passes with exactly the rows, scores and order of one full pass', () => {
    const module = dotsModule() as NonNullable<ReturnType<typeof dotsModule>>;
    let seed = 11;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    for (const dims of [3, 40, 256]) {
      const matrix = new GuildMatrix(module, dims, 16);
      // Sparse vectors over few features (like hashing embeddings), exact duplicates (ties),
      // zero vectors, and rows replaced and removed on the way.
      const make = () => {
        const v = new Float32Array(dims);
        for (let j = 0; j < 1 + Math.floor(next() * 6); j++)
          v[Math.floor(next() * Math.min(dims, 24))] = Math.round((next() - 0.3) * 8);
        return v;
      };
      const kept: Float32Array[] = [];
      for (let i = 0; i < COARSE_MIN_ROWS + 700; i++) {
        const v =
          i % 97 === 5
            ? new Float32Array(dims)
            : i % 13 === 0 && kept.length > 0
              ? (kept[i % kept.length] as Float32Array)
              : make();
        kept.push(v);
        matrix.set(i, `r${i}`, v);
      }
      for (let i = 0; i < 300; i += 3) matrix.remove(i);
      for (let i = 1; i < 200; i += 7) matrix.set(i, `again${i}`, make());
      expect(matrix.size).toBeGreaterThanOrEqual(COARSE_MIN_ROWS);
      for (let n = 0; n < 25; n++) {
        const query = n === 0 ? (kept[40] as Float32Array) : make();
        for (const k of [1, 10, 100, 1000]) {
          const two = matrix.nearest(query, k);
          expect(two).toEqual(matrix.nearest(query, k, { exhaustive: true }));
          expect(two).toHaveLength(k);
        }
      }
      // A zero query scores 0 against everything: the full pass answers it.
      expect(matrix.nearest(new Float32Array(dims), 5)).toEqual(
        matrix.nearest(new Float32Array(dims), 5, { exhaustive: true }),
      );
    }
  });
});
