import { createHash } from 'node:crypto';
import type { Embedder } from '../../ports/embedder.js';

export interface CachedEmbedderOptions {
  /** Most vectors kept (least recently used evicted first). Default 50,000. */
  readonly maxEntries?: number;
}

export interface CachedEmbedder extends Embedder {
  readonly inner: Embedder;
  readonly stats: () => { readonly hits: number; readonly misses: number; readonly size: number };
}

function keyOf(text: string): string {
  return createHash('sha256').update(text).digest('base64');
}

/**
 * Wraps an embedder with an in-process LRU cache keyed by a hash of the text (texts themselves are
 * not kept as keys). Only missing texts reach the inner embedder, in one call.
 */
export function cacheEmbedder(inner: Embedder, options: CachedEmbedderOptions = {}): CachedEmbedder {
  const maxEntries = options.maxEntries ?? 50_000;
  if (!Number.isInteger(maxEntries) || maxEntries < 1)
    throw new RangeError('maxEntries must be a positive integer');
  const cache = new Map<string, Float32Array>();
  let hits = 0;
  let misses = 0;

  const embed = async (texts: readonly string[]): Promise<Float32Array[]> => {
    const keys = texts.map(keyOf);
    const out: (Float32Array | undefined)[] = new Array(texts.length);
    const missing: number[] = [];
    const missingByKey = new Map<string, number[]>();
    keys.forEach((key, i) => {
      const hit = cache.get(key);
      if (hit) {
        cache.delete(key);
        cache.set(key, hit);
        out[i] = hit;
        hits++;
        return;
      }
      misses++;
      const slots = missingByKey.get(key);
      if (slots) slots.push(i);
      else {
        missingByKey.set(key, [i]);
        missing.push(i);
      }
    });
    if (missing.length > 0) {
      const vectors = await inner.embed(missing.map((i) => texts[i] as string));
      if (vectors.length !== missing.length)
        throw new RangeError('embedder returned a wrong number of vectors');
      missing.forEach((i, j) => {
        const key = keys[i] as string;
        const vec = vectors[j] as Float32Array;
        for (const slot of missingByKey.get(key) ?? []) out[slot] = vec;
        cache.set(key, vec);
        if (cache.size > maxEntries) {
          const oldest = cache.keys().next();
          if (!oldest.done) cache.delete(oldest.value);
        }
      });
    }
    return out as Float32Array[];
  };

  return {
    inner,
    get id() {
      return inner.id;
    },
    get dimensions() {
      return inner.dimensions;
    },
    embed,
    close: () => inner.close(),
    stats: () => ({ hits, misses, size: cache.size }),
  };
}
