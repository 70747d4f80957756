const K1 = 1.2;
const B = 0.75;

/**
 * One phrase's part of a row's bm25() score, as FTS5 computes it (ext/fts5/fts5_aux.c: k1 1.2,
 * b 0.75) and in its order of operations, so that sums of parts equal bm25()'s own to rounding.
 * `idf` is core's `bm25Idf`, FTS5's formula.
 */
export function bm25Contribution(idf: number, frequency: number, length: number, avgdl: number): number {
  return idf * ((frequency * (K1 + 1.0)) / (frequency + K1 * (1 - B + (B * length) / avgdl)));
}
