import { forEachIndexTerm, indexTerms } from '../text/analyze.js';

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
  const heads = headsOf(phrases);
  const found = new Set<string>();
  let previous: string | null = null;
  // Streamed: most of a document's adjacent pairs start with no query term and cost no string.
  forEachIndexTerm(documentText, (term) => {
    if (previous !== null && heads.has(previous)) {
      const pair = `${previous} ${term}`;
      if (phrases.has(pair)) found.add(pair);
    }
    previous = term;
  });
  return found.size / phrases.size;
}

/**
 * A fused score with the phrase match mixed in at weight `w` (`retrieval.phraseWeight`):
 * (fused + w × phrase) / (1 + w). Message search and recall rank with the same rule.
 */
export function withPhrase(fused: number, phrase: number, w: number): number {
  return (fused + w * phrase) / (1 + w);
}

/** The first terms of a query's phrases (one set per phrase set, kept while the set lives). */
const headSets = new WeakMap<ReadonlySet<string>, ReadonlySet<string>>();
function headsOf(phrases: ReadonlySet<string>): ReadonlySet<string> {
  let heads = headSets.get(phrases);
  if (!heads) {
    heads = new Set([...phrases].map((p) => p.slice(0, p.indexOf(' '))));
    headSets.set(phrases, heads);
  }
  return heads;
}
