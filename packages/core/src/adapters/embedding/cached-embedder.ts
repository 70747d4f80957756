import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Embedder } from '../../ports/embedder.js';

/** 32 MiB: about 5,400 vectors of 1,536 dimensions, or 32,000 of 256. */
export const DEFAULT_EMBEDDING_CACHE_BYTES = 32 * 1024 * 1024;

export interface CachedEmbedderOptions {
  /**
   * Most bytes kept: 4 per vector dimension plus the key (least recently used evicted first).
   * Default 32 MiB.
   */
  readonly maxBytes?: number;
}

export interface CachedEmbedder extends Embedder {
  readonly inner: Embedder;
  readonly stats: () => {
    readonly hits: number;
    readonly misses: number;
    /** Vectors cached. */
    readonly size: number;
    /** Bytes they count against `maxBytes`. */
    readonly bytes: number;
  };
}

function keyOf(text: string): string {
  return createHash('sha256').update(text).digest('base64');
}

/** A vector that views part of a larger buffer is copied, so the cache holds only what it counts. */
function compact(vector: Float32Array): Float32Array {
  return vector.byteOffset === 0 && vector.byteLength === vector.buffer.byteLength ? vector : vector.slice();
}

/**
 * Wraps an embedder with an in-process LRU cache (`lru-cache`) keyed by a hash of the text (texts
 * themselves are not kept as keys) and bounded by bytes. Only missing texts reach the inner
 * embedder, in one call.
 */
export function cacheEmbedder(inner: Embedder, options: CachedEmbedderOptions = {}): CachedEmbedder {
  const maxBytes = options.maxBytes ?? DEFAULT_EMBEDDING_CACHE_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1)
    throw new RangeError('maxBytes must be a positive integer');
  const cache = new LRUCache<string, Float32Array>({
    maxSize: maxBytes,
    sizeCalculation: (vector, key) => Math.max(1, vector.length * 4 + key.length),
  });
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
        const vec = compact(vectors[j] as Float32Array);
        for (const slot of missingByKey.get(key) ?? []) out[slot] = vec;
        cache.set(key, vec);
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
    ...(inner.lexical === true ? { lexical: true } : {}),
    embed,
    close: () => inner.close(),
    stats: () => ({ hits, misses, size: cache.size, bytes: cache.calculatedSize }),
  };
}
