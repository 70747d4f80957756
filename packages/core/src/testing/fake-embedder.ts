import type { Embedder } from '../ports/embedder.js';
import { tokenize } from '../text/analyze.js';
import { STOPWORDS } from '../text/stopwords.js';

export interface FakeEmbedderOptions {
  /** Vector length (default 64). */
  readonly dimensions?: number;
  /** Groups of words embedded identically, e.g. `[['loves', 'enjoys'], ['coding', 'programming']]`. */
  readonly synonyms?: readonly (readonly string[])[];
  /** Fails every call with this error (for degradation tests). */
  readonly failWith?: Error;
  /**
   * Declares the embedder lexical (default true: it is a bag of words). false makes the library
   * treat it like a sentence-embedding model (see `Embedder.lexical`).
   */
  readonly lexical?: boolean;
}

export interface FakeEmbedder extends Embedder {
  /** Number of `embed` calls so far. */
  readonly calls: () => number;
  /** Texts embedded so far, in order. */
  readonly texts: () => readonly string[];
}

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * A deterministic bag-of-words embedder for tests: content words (stop words dropped) are hashed
 * into a unit vector; words of one synonym group share a feature, so "Alice loves coding" and
 * "Alice enjoys programming" get the same vector when those words are declared synonyms.
 */
export function createFakeEmbedder(options: FakeEmbedderOptions = {}): FakeEmbedder {
  const dimensions = options.dimensions ?? 64;
  const canonical = new Map<string, string>();
  for (const group of options.synonyms ?? []) {
    const head = group[0]?.toLowerCase();
    if (head === undefined) continue;
    for (const w of group) canonical.set(w.toLowerCase(), head);
  }
  let calls = 0;
  const seen: string[] = [];
  const vector = (text: string): Float32Array => {
    const v = new Float32Array(dimensions);
    for (const token of tokenize(text)) {
      if (STOPWORDS.has(token)) continue;
      const feature = canonical.get(token) ?? token;
      const i = fnv1a(feature) % dimensions;
      v[i] = (v[i] ?? 0) + 1;
    }
    let norm = 0;
    for (const x of v) norm += x * x;
    if (norm > 0) for (let i = 0; i < dimensions; i++) v[i] = (v[i] as number) / Math.sqrt(norm);
    return v;
  };
  return {
    id: `fake-${dimensions}`,
    dimensions,
    ...(options.lexical === false ? {} : { lexical: true }),
    async embed(texts) {
      calls++;
      seen.push(...texts);
      if (options.failWith) throw options.failWith;
      return texts.map(vector);
    },
    async close() {},
    calls: () => calls,
    texts: () => seen,
  };
}
