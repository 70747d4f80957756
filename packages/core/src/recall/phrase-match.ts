import { indexTerms } from '../text/analyze.js';

/**
 * Adjacent pairs of analysed query terms (stop words removed, stemmed): "the local community
 * theater" → "local commun", "commun theater". Empty for a query of fewer than two terms.
 */
export function queryPhrases(queryText: string): ReadonlySet<string> {
  const terms = indexTerms(queryText);
  const out = new Set<string>();
  for (let i = 0; i + 1 < terms.length; i++) out.add(`${terms[i]} ${terms[i + 1]}`);
  return out;
}

/**
 * Phrase match: the share of the query's term pairs that occur next to each other, in the
 * query's order, in the document's analysed terms (0 when the query has no pair). BM25 scores
 * each term alone; this separates "a 5K charity run" from "a charity 5K run/walk" and "charity"
 * in one sentence and "run" in another.
 */
export function phraseMatch(phrases: ReadonlySet<string>, documentText: string): number {
  if (phrases.size === 0) return 0;
  const terms = indexTerms(documentText);
  const found = new Set<string>();
  for (let i = 0; i + 1 < terms.length; i++) {
    const pair = `${terms[i]} ${terms[i + 1]}`;
    if (phrases.has(pair)) found.add(pair);
  }
  return found.size / phrases.size;
}
