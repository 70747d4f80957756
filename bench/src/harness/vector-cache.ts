/**
 * A disk cache in front of a slow embedder (the local model) for the recall-quality suites: the
 * same texts are embedded by every run, so their vectors are kept in
 * `<dir>/<embedder id>.vec` (records of sha256(text) + float32 vector, appended). The cached
 * embedder keeps the inner id and dimensions, so the library sees the same model. Only quality
 * suites use it; no timing is taken through it.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Embedder } from '../locomo/core.js';

const HASH_BYTES = 32;

export function defaultVectorCacheDir(): string {
  return (
    process.env['PERMAFROST_BENCH_VECTOR_CACHE'] ?? join(homedir(), '.cache', 'permafrost', 'bench-vectors')
  );
}

const hashOf = (text: string) => createHash('sha256').update(text).digest();

function load(file: string, dims: number): Map<string, Float32Array> {
  const out = new Map<string, Float32Array>();
  if (!existsSync(file)) return out;
  const buf = readFileSync(file);
  const size = HASH_BYTES + dims * 4;
  for (let off = 0; off + size <= buf.length; off += size) {
    const key = buf.subarray(off, off + HASH_BYTES).toString('base64');
    const vec = new Float32Array(dims);
    Buffer.from(vec.buffer).set(buf.subarray(off + HASH_BYTES, off + size));
    out.set(key, vec);
  }
  return out;
}

/** `inner` with its vectors cached on disk under `dir` (embeds one probe text to learn the size). */
export async function diskCachedEmbedder(inner: Embedder, dir = defaultVectorCacheDir()): Promise<Embedder> {
  mkdirSync(dir, { recursive: true });
  const dims = inner.dimensions ?? (await inner.embed(['dimensions probe']))[0]?.length ?? 0;
  const file = join(dir, `${inner.id.replace(/[^A-Za-z0-9._-]/g, '_')}-${dims}.vec`);
  const cache = load(file, dims);
  return {
    id: inner.id,
    dimensions: dims,
    ...(inner.lexical === true ? { lexical: true } : {}),
    async embed(texts) {
      const keys = texts.map((t) => hashOf(t));
      const missing: number[] = [];
      keys.forEach((k, i) => {
        if (!cache.has(k.toString('base64'))) missing.push(i);
      });
      if (missing.length > 0) {
        const vectors = await inner.embed(missing.map((i) => texts[i] as string));
        const records: Buffer[] = [];
        missing.forEach((i, j) => {
          const v = vectors[j] as Float32Array;
          const key = keys[i] as Buffer;
          cache.set(key.toString('base64'), v);
          records.push(key, Buffer.from(v.buffer, v.byteOffset, v.byteLength));
        });
        appendFileSync(file, Buffer.concat(records));
      }
      return keys.map((k) => cache.get(k.toString('base64')) as Float32Array);
    },
    close: () => inner.close(),
  };
}
