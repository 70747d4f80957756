export interface Bm25Doc {
  readonly id: string;
  readonly terms: readonly string[];
}

export interface Bm25Options {
  readonly k1?: number;
  readonly b?: number;
}

/** What BM25 needs to know of a corpus (see `Bm25Corpus.fromCounts`). */
export interface Bm25Counts {
  readonly docs: number;
  readonly totalLength: number;
  readonly docsWith: ReadonlyMap<string, number>;
}

/**
 * Corpus statistics for BM25: document count, average length and per-term document frequency.
 * Built once per query over the corpus the index covers.
 */
export class Bm25Corpus {
  readonly #df = new Map<string, number>();
  #docs = 0;
  #totalLength = 0;

  /**
   * A corpus known by its counts instead of its documents: `docs` documents of `totalLength`
   * terms in all, `docsWith` documents holding each term (terms left out hold none). Scores equal
   * those of a corpus built document by document with the same counts.
   */
  static fromCounts(counts: Bm25Counts): Bm25Corpus {
    const corpus = new Bm25Corpus();
    corpus.#docs = counts.docs;
    corpus.#totalLength = counts.totalLength;
    for (const [term, n] of counts.docsWith) corpus.#df.set(term, n);
    return corpus;
  }

  add(terms: readonly string[]): void {
    this.#docs++;
    this.#totalLength += terms.length;
    for (const term of new Set(terms)) this.#df.set(term, (this.#df.get(term) ?? 0) + 1);
  }

  get size(): number {
    return this.#docs;
  }

  /** A term's idf as `score` uses it (`bm25Idf`). */
  idf(term: string): number {
    return bm25Idf(this.#docs, this.#df.get(term) ?? 0);
  }

  /** `bm25FullMatchScore` over this corpus. */
  fullMatchScore(query: readonly string[]): number {
    return bm25FullMatchScore(this.#docs, query, (term) => this.#df.get(term) ?? 0);
  }

  /**
   * BM25 as SQLite FTS5 computes it: idf = ln((N − n + 0.5) / (n + 0.5)), floored at 1e-6;
   * returns 0 when the document has none of the query terms.
   */
  score(doc: readonly string[], query: readonly string[], options: Bm25Options = {}): number {
    const k1 = options.k1 ?? 1.2;
    const b = options.b ?? 0.75;
    if (this.#docs === 0 || doc.length === 0) return 0;
    const avgdl = this.#totalLength / this.#docs;
    const counts = new Map<string, number>();
    for (const t of doc) counts.set(t, (counts.get(t) ?? 0) + 1);
    let score = 0;
    for (const q of query) {
      const f = counts.get(q);
      if (!f) continue;
      score += (this.idf(q) * (f * (k1 + 1))) / (f + k1 * (1 - b + (b * doc.length) / avgdl));
    }
    return score;
  }
}

/** BM25's idf of a term held by `n` of `docs` documents: ln((N − n + 0.5) / (n + 0.5)), floored at 1e-6. */
export function bm25Idf(docs: number, n: number): number {
  const idf = Math.log((docs - n + 0.5) / (n + 0.5));
  return idf > 0 ? idf : 1e-6;
}

/**
 * The BM25 score of a document holding each query term once at the corpus's average length: the
 * sum of the terms' idf (terms found in no document included), given the corpus size and each
 * term's document count. 0 for an empty corpus.
 */
export function bm25FullMatchScore(
  docs: number,
  query: readonly string[],
  docsWith: (term: string) => number,
): number {
  if (docs === 0) return 0;
  let sum = 0;
  for (const term of query) sum += bm25Idf(docs, docsWith(term));
  return sum;
}

/** Ranked BM25 hits and the score a full match would get (`Bm25Corpus.fullMatchScore`). */
export interface Bm25Search {
  readonly hits: { id: string; score: number }[];
  readonly fullMatchScore: number;
}

/** Ranks documents containing any query term by BM25, best first. */
export function rankBm25(
  corpus: Iterable<Bm25Doc>,
  candidates: Iterable<Bm25Doc>,
  query: readonly string[],
  limit: number,
): { id: string; score: number }[] {
  return searchBm25(corpus, candidates, query, limit).hits;
}

/** `rankBm25`, with the full-match score of the query over the same corpus. */
export function searchBm25(
  corpus: Iterable<Bm25Doc>,
  candidates: Iterable<Bm25Doc>,
  query: readonly string[],
  limit: number,
): Bm25Search {
  const stats = new Bm25Corpus();
  for (const doc of corpus) stats.add(doc.terms);
  return searchBm25In(stats, candidates, query, limit);
}

/**
 * `searchBm25` over a corpus given by its statistics (`Bm25Corpus`, e.g. `fromCounts`): for a
 * store that counts the documents holding each query term instead of reading them.
 */
export function searchBm25In(
  stats: Bm25Corpus,
  candidates: Iterable<Bm25Doc>,
  query: readonly string[],
  limit: number,
): Bm25Search {
  const wanted = new Set(query);
  const hits: { id: string; score: number }[] = [];
  for (const doc of candidates) {
    if (!doc.terms.some((t) => wanted.has(t))) continue;
    const score = stats.score(doc.terms, query);
    if (score > 0) hits.push({ id: doc.id, score });
  }
  hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  return { hits: hits.slice(0, limit), fullMatchScore: stats.fullMatchScore(query) };
}
