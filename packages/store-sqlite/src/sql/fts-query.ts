const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const CONTROL = /\p{Cc}/u;

/**
 * The FTS5 MATCH expression for a list of analysed terms: each term one double-quoted phrase
 * (embedded quotes doubled), joined with OR. Terms are data: a quoted phrase has no operators,
 * columns, prefixes or NEAR groups, whatever it contains. Terms that cannot be bound safely
 * (empty, whitespace-only, control characters such as NUL, lone surrogates) are dropped.
 * Returns null when nothing is left, so the caller returns no hits without querying.
 */
export function ftsMatchExpression(terms: readonly string[]): string | null {
  const phrases = ftsTerms(terms).map((term) => `"${term.replaceAll('"', '""')}"`);
  return phrases.length > 0 ? phrases.join(' OR ') : null;
}

/** The terms `ftsMatchExpression` keeps, in order (the phrases bm25() sums over). */
export function ftsTerms(terms: readonly string[]): string[] {
  return terms.filter(
    (term) =>
      typeof term === 'string' && term.trim().length > 0 && !CONTROL.test(term) && !LONE_SURROGATE.test(term),
  );
}

/** The text stored in a keyword index row: core's analysed terms, space-separated. */
export function ftsDocument(terms: readonly string[]): string {
  return terms.join(' ');
}
