import { stemmer } from 'stemmer';

const LETTERS = /^[a-z]+$/;

/**
 * Words that are nothing but a step-1 suffix, which the `stemmer` package strips differently from
 * Porter's reference implementation (its patterns want at least one letter before the suffix).
 * Stored keyword indexes hold the reference stems, so these keep them.
 */
const BARE_SUFFIXES: ReadonlyMap<string, string> = new Map([
  ['ies', 'i'],
  ['sses', 'ss'],
  ['eed', 'eed'],
]);

/**
 * Porter's 1980 suffix-stripping stemmer (the `stemmer` package: the reference implementation's
 * rules, including its 'bli' → 'ble' and 'logi' → 'log' departures from the paper) for English
 * words of lowercase ASCII letters. Words of one or two letters, and words with non-letters
 * (digits, other scripts), are returned unchanged.
 */
export function porterStem(word: string): string {
  if (word.length <= 2 || !LETTERS.test(word)) return word;
  return BARE_SUFFIXES.get(word) ?? stemmer(word);
}
