import { describe, expect, it } from 'vitest';
import { cacheEmbedder, DEFAULT_EMBEDDING_CACHE_BYTES, type Embedder } from '../../src/index.js';

/** An embedder of `dims` dimensions that records every text it is asked for. */
function counting(dims: number, view = false) {
  const asked: string[] = [];
  const embedder: Embedder = {
    id: 'counting',
    dimensions: dims,
    close: async () => {},
    embed: async (texts) => {
      asked.push(...texts);
      // one buffer for the whole batch, as a batched model may return (when `view`)
      const all = new Float32Array(dims * texts.length).fill(1);
      return texts.map((_, i) =>
        view ? all.subarray(i * dims, (i + 1) * dims) : all.slice(i * dims, (i + 1) * dims),
      );
    },
  };
  return { embedder, asked };
}

/** 4 bytes per dimension plus the 44-character base64 sha256 key. */
const entryBytes = (dims: number) => dims * 4 + 44;

describe('cacheEmbedder', () => {
  it('asks the inner embedder only for texts it has not seen, once per distinct text', async () => {
    const { embedder, asked } = counting(8);
    const cached = cacheEmbedder(embedder);
    await cached.embed(['a', 'b', 'a']);
    await cached.embed(['b', 'c']);
    expect(asked).toEqual(['a', 'b', 'c']);
    expect(cached.stats()).toEqual({ hits: 1, misses: 4, size: 3, bytes: 3 * entryBytes(8) });
  });

  it('filling past the byte bound evicts the least recently used vectors', async () => {
    const { embedder, asked } = counting(8);
    const cached = cacheEmbedder(embedder, { maxBytes: 3 * entryBytes(8) });
    await cached.embed(['a', 'b', 'c']);
    await cached.embed(['a']); // a is now the most recently used; b the least
    await cached.embed(['d']); // one over the bound: b goes
    expect(cached.stats()).toMatchObject({ size: 3, bytes: 3 * entryBytes(8) });
    asked.length = 0;
    await cached.embed(['a', 'c', 'd']);
    expect(asked).toEqual([]);
    await cached.embed(['b']);
    expect(asked).toEqual(['b']);
  });

  it('is bounded by bytes, not entries: bigger vectors mean fewer of them (default 32 MiB)', async () => {
    expect(DEFAULT_EMBEDDING_CACHE_BYTES).toBe(32 * 1024 * 1024);
    const { embedder } = counting(1536);
    const cached = cacheEmbedder(embedder);
    const texts = Array.from({ length: 6000 }, (_, i) => `text ${i}`);
    for (let i = 0; i < texts.length; i += 500) await cached.embed(texts.slice(i, i + 500));
    const { size, bytes } = cached.stats();
    expect(size).toBe(Math.floor(DEFAULT_EMBEDDING_CACHE_BYTES / entryBytes(1536)));
    expect(bytes).toBeLessThanOrEqual(DEFAULT_EMBEDDING_CACHE_BYTES);
    const small = cacheEmbedder(counting(8).embedder);
    await small.embed(texts);
    expect(small.stats().size).toBe(6000);
  });

  it('keeps a compact copy of a vector that views a larger buffer, so its bytes are what it counts', async () => {
    const { embedder } = counting(8, true);
    const cached = cacheEmbedder(embedder);
    const [first] = await cached.embed(['a', 'b']);
    expect(first?.buffer.byteLength).toBe(32);
    const [again] = await cached.embed(['a']);
    expect(again).toBe(first);
  });

  it('rejects a bound that is not a positive integer', () => {
    const { embedder } = counting(8);
    for (const maxBytes of [0, -1, 1.5, Number.NaN])
      expect(() => cacheEmbedder(embedder, { maxBytes })).toThrow(RangeError);
  });
});
