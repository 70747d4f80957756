import { normalizeAlias } from '../identity/aliases.js';
import { STOPWORDS } from '../text/stopwords.js';

/** Words of a query considered for name matching (the first 16). */
export const MAX_QUERY_WORDS = 16;
/** Longest name looked up, in words. */
export const MAX_NGRAM = 4;

const POSSESSIVE = /['’]s\b/gu;
const WORD = /[\p{L}\p{N}]+(?:[._+#-][\p{L}\p{N}]+)*/gu;

/** Lowercased words of the text with possessives removed ("Jon's" → "jon"). */
export function queryWords(text: string, max = MAX_QUERY_WORDS): string[] {
  const flat = normalizeAlias(text).replace(POSSESSIVE, '');
  const out: string[] = [];
  for (const m of flat.matchAll(WORD)) {
    out.push(m[0]);
    if (out.length >= max) break;
  }
  return out;
}

export interface Ngram {
  readonly text: string;
  readonly start: number;
  readonly size: number;
}

/** A single word is a name candidate when it has 3+ characters and is not a stop word. */
function usableUnigram(word: string): boolean {
  return word.length >= 3 && !STOPWORDS.has(word);
}

/** Every n-gram of 1..maxN words (unigrams only when usable), longest first. */
export function ngrams(words: readonly string[], maxN = MAX_NGRAM): Ngram[] {
  const out: Ngram[] = [];
  for (let size = Math.min(maxN, words.length); size >= 1; size--) {
    for (let start = 0; start + size <= words.length; start++) {
      const slice = words.slice(start, start + size);
      if (size === 1 && !usableUnigram(slice[0] as string)) continue;
      if (size > 1 && slice.every((w) => STOPWORDS.has(w))) continue;
      out.push({ text: slice.join(' '), start, size });
    }
  }
  return out;
}

/**
 * Greedy longest match: walks n-grams longest first and keeps those `isMatch` accepts whose words
 * are not yet consumed by a longer match.
 */
export function longestMatches(candidates: readonly Ngram[], isMatch: (text: string) => boolean): Ngram[] {
  const used = new Set<number>();
  const out: Ngram[] = [];
  for (const g of candidates) {
    if (!isMatch(g.text)) continue;
    let free = true;
    for (let i = g.start; i < g.start + g.size; i++) if (used.has(i)) free = false;
    if (!free) continue;
    for (let i = g.start; i < g.start + g.size; i++) used.add(i);
    out.push(g);
  }
  return out;
}
