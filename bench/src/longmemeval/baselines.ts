/**
 * Reference retrievers of PROVENANCE.md and the table: Okapi BM25 as `rank_bm25` computes
 * it (k1 1.5, b 0.75, idf ln((N − n + 0.5) / (n + 0.5)) with negative idf replaced by 0.25 × the
 * mean idf, every query token counted) over plain lower-cased alphanumeric tokens, and over
 * Porter stems with stop words removed (core's `indexTerms`). They rank a question's user turns
 * directly; no library ranking is involved. The plain row reproduces PROVENANCE.md's reference.
 */
import { indexTerms } from '../locomo/core.js';
import type { LmeQuestion } from './dataset.js';

export type BaselineName = 'bm25-plain' | 'bm25-stemmed';

const K1 = 1.5;
const B = 0.75;
const EPSILON = 0.25;

const plainTokens = (text: string): string[] => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];

function okapiScores(docs: readonly (readonly string[])[], query: readonly string[]): number[] {
  const df = new Map<string, number>();
  let total = 0;
  for (const d of docs) {
    total += d.length;
    for (const t of new Set(d)) df.set(t, (df.get(t) ?? 0) + 1);
  }
  const n = docs.length;
  const avgdl = total / Math.max(1, n);
  const idf = new Map<string, number>();
  let sum = 0;
  for (const [t, f] of df) {
    const v = Math.log(n - f + 0.5) - Math.log(f + 0.5);
    idf.set(t, v);
    sum += v;
  }
  const floor = (EPSILON * sum) / Math.max(1, df.size);
  for (const [t, v] of idf) if (v < 0) idf.set(t, floor);
  return docs.map((d) => {
    const tf = new Map<string, number>();
    for (const t of d) tf.set(t, (tf.get(t) ?? 0) + 1);
    let s = 0;
    for (const q of query) {
      const f = tf.get(q) ?? 0;
      if (f === 0) continue;
      s += ((idf.get(q) ?? 0) * f * (K1 + 1)) / (f + K1 * (1 - B + (B * d.length) / avgdl));
    }
    return s;
  });
}

export function rankBaseline(name: BaselineName, q: LmeQuestion, limit: number): string[] {
  const analyse = name === 'bm25-plain' ? plainTokens : indexTerms;
  const turns = q.sessions.flatMap((s) => s.turns);
  const scores = okapiScores(
    turns.map((t) => analyse(t.content)),
    analyse(q.question),
  );
  return turns
    .map((t, i) => ({ id: t.docId, score: scores[i] as number, i }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, limit)
    .map((d) => d.id);
}
