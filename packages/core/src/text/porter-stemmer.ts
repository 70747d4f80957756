/**
 * Porter's 1980 suffix-stripping stemmer for English words (lowercase ASCII letters).
 * Words of one or two letters, and words with non-letters, are returned unchanged.
 */
function isConsonant(w: string, i: number): boolean {
  const c = w.charCodeAt(i);
  // a e i o u
  if (c === 97 || c === 101 || c === 105 || c === 111 || c === 117) return false;
  if (c === 121) return i === 0 ? true : !isConsonant(w, i - 1); // y
  return true;
}

/** m(): the number of VC sequences in w[0..end). */
function measure(w: string, end: number): number {
  let n = 0;
  let i = 0;
  while (i < end && isConsonant(w, i)) i++;
  while (i < end) {
    while (i < end && !isConsonant(w, i)) i++;
    if (i >= end) break;
    n++;
    while (i < end && isConsonant(w, i)) i++;
  }
  return n;
}

function hasVowel(w: string, end: number): boolean {
  for (let i = 0; i < end; i++) if (!isConsonant(w, i)) return true;
  return false;
}

function endsDoubleConsonant(w: string, end: number): boolean {
  return end >= 2 && w[end - 1] === w[end - 2] && isConsonant(w, end - 1);
}

/** cvc at the end of w[0..end), where the last c is not w, x or y. */
function endsCvc(w: string, end: number): boolean {
  if (end < 3) return false;
  if (!isConsonant(w, end - 1) || isConsonant(w, end - 2) || !isConsonant(w, end - 3)) return false;
  const c = w[end - 1];
  return c !== 'w' && c !== 'x' && c !== 'y';
}

type Rule = readonly [suffix: string, replacement: string];

function replaceIfMeasure(w: string, rules: readonly Rule[], minMeasure: number): string {
  for (const [suffix, repl] of rules) {
    if (w.endsWith(suffix)) {
      const stem = w.length - suffix.length;
      return measure(w, stem) > minMeasure ? w.slice(0, stem) + repl : w;
    }
  }
  return w;
}

const STEP2: readonly Rule[] = [
  ['ational', 'ate'],
  ['tional', 'tion'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['izer', 'ize'],
  ['bli', 'ble'],
  ['alli', 'al'],
  ['entli', 'ent'],
  ['eli', 'e'],
  ['ousli', 'ous'],
  ['ization', 'ize'],
  ['ation', 'ate'],
  ['ator', 'ate'],
  ['alism', 'al'],
  ['iveness', 'ive'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['aliti', 'al'],
  ['iviti', 'ive'],
  ['biliti', 'ble'],
  ['logi', 'log'],
];
const STEP3: readonly Rule[] = [
  ['icate', 'ic'],
  ['ative', ''],
  ['alize', 'al'],
  ['iciti', 'ic'],
  ['ical', 'ic'],
  ['ful', ''],
  ['ness', ''],
];
const STEP4 = [
  'al',
  'ance',
  'ence',
  'er',
  'ic',
  'able',
  'ible',
  'ant',
  'ement',
  'ment',
  'ent',
  'ion',
  'ou',
  'ism',
  'ate',
  'iti',
  'ous',
  'ive',
  'ize',
] as const;

function step1ab(w: string): string {
  if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('ies')) w = w.slice(0, -2);
  else if (!w.endsWith('ss') && w.endsWith('s')) w = w.slice(0, -1);

  if (w.endsWith('eed')) {
    return measure(w, w.length - 3) > 0 ? w.slice(0, -1) : w;
  }
  let stripped: string | null = null;
  if (w.endsWith('ed') && hasVowel(w, w.length - 2)) stripped = w.slice(0, -2);
  else if (w.endsWith('ing') && hasVowel(w, w.length - 3)) stripped = w.slice(0, -3);
  if (stripped === null) return w;
  w = stripped;
  if (w.endsWith('at') || w.endsWith('bl') || w.endsWith('iz')) return `${w}e`;
  if (endsDoubleConsonant(w, w.length)) {
    const last = w[w.length - 1];
    return last === 'l' || last === 's' || last === 'z' ? w : w.slice(0, -1);
  }
  if (measure(w, w.length) === 1 && endsCvc(w, w.length)) return `${w}e`;
  return w;
}

function step1c(w: string): string {
  return w.endsWith('y') && hasVowel(w, w.length - 1) ? `${w.slice(0, -1)}i` : w;
}

function step4(w: string): string {
  for (const suffix of STEP4) {
    if (!w.endsWith(suffix)) continue;
    const stem = w.length - suffix.length;
    if (suffix === 'ion') {
      const before = w[stem - 1];
      if (measure(w, stem) > 1 && (before === 's' || before === 't')) return w.slice(0, stem);
      return w;
    }
    return measure(w, stem) > 1 ? w.slice(0, stem) : w;
  }
  return w;
}

function step5(w: string): string {
  if (w.endsWith('e')) {
    const m = measure(w, w.length - 1);
    if (m > 1 || (m === 1 && !endsCvc(w, w.length - 1))) w = w.slice(0, -1);
  }
  if (w.endsWith('ll') && measure(w, w.length) > 1) w = w.slice(0, -1);
  return w;
}

const LETTERS = /^[a-z]+$/;

export function porterStem(word: string): string {
  if (word.length <= 2 || !LETTERS.test(word)) return word;
  let w = step1ab(word);
  w = step1c(w);
  w = replaceIfMeasure(w, STEP2, 0);
  w = replaceIfMeasure(w, STEP3, 0);
  w = step4(w);
  return step5(w);
}
