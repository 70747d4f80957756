/**
 * What keyword (BM25) scores are divided by to give the lexical component: the query's best
 * score, or `floor` × the score a full match of the query would get when that is larger. Dividing
 * by the best hit alone calls the best partial match a perfect one: when a query's rarest terms
 * match nothing, a message that only shares its commonest word would score 1. Measured against a
 * share of the full match instead, such partial matches keep a lexical score in proportion to
 * the evidence they hold. 0 when there is nothing to divide by.
 */
export function lexicalDivisor(best: number, fullMatchScore: number | undefined, floor: number): number {
  const full = fullMatchScore !== undefined && Number.isFinite(fullMatchScore) ? fullMatchScore : 0;
  return Math.max(0, best, floor * full);
}
