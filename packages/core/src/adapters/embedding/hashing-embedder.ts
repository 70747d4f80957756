import type { Embedder } from '../../ports/embedder.js';
import { indexTerms, normalizeText } from '../../text/analyze.js';

export interface HashingEmbedderOptions {
  /** Vector length (default 256, at least 32). */
  readonly dimensions?: number;
}

const TOKEN_WEIGHT = 1.0;
const BIGRAM_WEIGHT = 0.7;
const CHAR_GRAM_WEIGHT = 0.25;
const CHAR_GRAM = 4;

/** 32-bit FNV-1a over UTF-16 code units. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function addFeature(vec: Float32Array, feature: string, weight: number): void {
  const h = fnv1a(feature);
  const index = h % vec.length;
  // An independent bit decides the sign so collisions tend to cancel rather than pile up.
  const sign = (fnv1a(`#${feature}`) & 1) === 0 ? 1 : -1;
  vec[index] = (vec[index] ?? 0) + sign * weight;
}

/** Feature-hashing vector of one text: content-word stems, stem bigrams and character 4-grams. */
export function hashingVector(text: string, dimensions: number): Float32Array {
  const vec = new Float32Array(dimensions);
  const terms = indexTerms(text);
  for (let i = 0; i < terms.length; i++) {
    const term = terms[i] as string;
    addFeature(vec, `w:${term}`, TOKEN_WEIGHT);
    if (i > 0) addFeature(vec, `b:${terms[i - 1]}_${term}`, BIGRAM_WEIGHT);
  }
  const flat = ` ${normalizeText(text)} `;
  for (let i = 0; i + CHAR_GRAM <= flat.length; i++) {
    addFeature(vec, `c:${flat.slice(i, i + CHAR_GRAM)}`, CHAR_GRAM_WEIGHT);
  }
  let norm = 0;
  for (let i = 0; i < vec.length; i++) norm += (vec[i] as number) ** 2;
  if (norm > 0) {
    const inv = 1 / Math.sqrt(norm);
    for (let i = 0; i < vec.length; i++) vec[i] = (vec[i] as number) * inv;
  }
  return vec;
}

/**
 * The zero-setup default embedder: deterministic, offline, lexical. It matches shared words and
 * spellings, not paraphrases; use a local model or an embedding endpoint for semantic recall.
 */
export function createHashingEmbedder(options: HashingEmbedderOptions = {}): Embedder {
  const dimensions = options.dimensions ?? 256;
  if (!Number.isInteger(dimensions) || dimensions < 32 || dimensions > 4096) {
    throw new RangeError('hashing embedder dimensions must be an integer in [32, 4096]');
  }
  return {
    id: `hashing-v1-${dimensions}`,
    dimensions,
    lexical: true,
    embed: async (texts) => texts.map((t) => hashingVector(t, dimensions)),
    close: async () => {},
  };
}
