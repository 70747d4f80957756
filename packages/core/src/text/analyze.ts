import { baseForm } from './irregular-forms.js';
import { porterStem } from './porter-stemmer.js';
import { STOPWORDS } from './stopwords.js';

const COMBINING_MARKS = /[\u0300-\u036f]/g;
const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;
const APOSTROPHE = /['’]/g;
const WHITESPACE = /\s+/g;
/** Anything but printable ASCII and white space: only such text can change under the fold. */
const NEEDS_FOLD = /[^ -~\s]/;

/** Lowercase, Unicode-normalised, whitespace-collapsed text: the exact-duplicate key of a fact. */
export function normalizeText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(WHITESPACE, ' ').trim();
}

/** Word tokens: lowercase, accents folded, apostrophes removed ("don't" → "dont"). */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  forEachToken(text, (token) => out.push(token));
  return out;
}

/** Calls `fn` with each word token of `text`, in order (what `tokenize` returns, without the array). */
function forEachToken(text: string, fn: (token: string) => void): void {
  // Printable ASCII is its own NFKD form, without combining marks: most chat text skips the fold.
  const folded = (
    NEEDS_FOLD.test(text) ? text.normalize('NFKD').replace(COMBINING_MARKS, '') : text
  ).toLowerCase();
  // match() hands back the words alone; matchAll builds a match object (index, input) per word.
  for (const word of folded.match(WORD) ?? [])
    fn(word.includes("'") || word.includes('’') ? word.replace(APOSTROPHE, '') : word);
}

/**
 * Names what `indexTerms` produces (tokens, stop words, irregular forms, stemmer). Stored keyword
 * indexes hold these terms and record the id they were written with (store metadata
 * `analyzer.id`); bump it with any change that alters a term, and rebuild stored terms on start
 * when the recorded id differs.
 */
export const ANALYZER_ID = 'en-porter1980.1';

/**
 * Terms a keyword index stores and queries with: tokens minus stop words, irregular inflections
 * mapped to their base form, Porter-stemmed.
 * Every store indexes these terms so keyword ranking is identical across backends.
 */
export function indexTerms(text: string): string[] {
  const out: string[] = [];
  forEachIndexTerm(text, (term) => out.push(term));
  return out;
}

/** Calls `fn` with each of `indexTerms(text)`, in order, without building the array. */
export function forEachIndexTerm(text: string, fn: (term: string) => void): void {
  forEachToken(text, (token) => {
    if (!STOPWORDS.has(token)) fn(termOf(token));
  });
}

/**
 * The term of a token, remembered: a conversation's vocabulary repeats, and stemming is most of
 * the cost of analysing a text (search scores every candidate message's words). Pure, so the memo
 * cannot change a term; emptied when full, so it stays bounded.
 */
const TERM_MEMO_MAX = 50_000;
const termMemo = new Map<string, string>();
function termOf(token: string): string {
  let term = termMemo.get(token);
  if (term === undefined) {
    term = porterStem(baseForm(token));
    if (termMemo.size >= TERM_MEMO_MAX) termMemo.clear();
    termMemo.set(token, term);
  }
  return term;
}

/** Distinct query terms, in first-seen order, capped to keep queries cheap. */
export function queryTerms(text: string, max = 32): string[] {
  const seen = new Set<string>();
  for (const term of indexTerms(text)) {
    if (term.length === 0) continue;
    seen.add(term);
    if (seen.size >= max) break;
  }
  return [...seen];
}
