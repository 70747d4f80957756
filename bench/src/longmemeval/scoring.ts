/**
 * LongMemEval retrieval metrics (the paper's evaluation): recall_any@k (a gold item in the top k),
 * recall_all@k (every gold item in the top k) and NDCG@k with binary relevance, at turn level and
 * at session level (the turn ranking walked, each session kept at its first appearance).
 */
export const LME_KS = [1, 3, 5, 10, 30, 50] as const;

export interface Metrics {
  readonly recallAny: number;
  readonly recallAll: number;
  readonly ndcg: number;
}

/** DCG as the LongMemEval scorer computes it: rel₁ + Σ_{i≥2} relᵢ / log₂ i. */
function dcg(rels: readonly number[]): number {
  let s = 0;
  rels.forEach((r, i) => {
    s += i === 0 ? r : r / Math.log2(i + 1);
  });
  return s;
}

export function scoreRanking(ranked: readonly string[], gold: ReadonlySet<string>, k: number): Metrics {
  const top = ranked.slice(0, k);
  const hits = top.filter((id) => gold.has(id)).length;
  const ideal = dcg(Array.from({ length: Math.min(k, gold.size) }, () => 1));
  return {
    recallAny: hits > 0 ? 1 : 0,
    recallAll: hits === gold.size ? 1 : 0,
    ndcg: ideal > 0 ? dcg(top.map((id) => (gold.has(id) ? 1 : 0))) / ideal : 0,
  };
}

/** Distinct sessions in order of their first turn in the ranking. */
export function sessionRanking(
  rankedTurns: readonly string[],
  sessionOf: (docId: string) => string,
): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const id of rankedTurns) {
    const s = sessionOf(id);
    if (seen.has(s)) continue;
    seen.add(s);
    out.push(s);
  }
  return out;
}

type Level = 'turn' | 'session';
type Sums = Record<Level, Record<string, { recallAny: number; recallAll: number; ndcg: number }>>;

/** Mean metrics per k, overall and per question type. */
export class LmeTally {
  readonly #ks: readonly number[];
  readonly #buckets = new Map<string, { n: number; sums: Sums }>();

  constructor(ks: readonly number[] = LME_KS) {
    this.#ks = ks;
  }

  add(
    questionType: string,
    turns: { readonly ranked: readonly string[]; readonly gold: ReadonlySet<string> },
    sessions: { readonly ranked: readonly string[]; readonly gold: ReadonlySet<string> },
  ): void {
    for (const key of ['overall', questionType]) {
      let b = this.#buckets.get(key);
      if (!b) {
        b = { n: 0, sums: { turn: {}, session: {} } };
        this.#buckets.set(key, b);
      }
      b.n++;
      for (const [level, r] of [
        ['turn', turns],
        ['session', sessions],
      ] as const)
        for (const k of this.#ks) {
          const m = scoreRanking(r.ranked, r.gold, k);
          const byK = b.sums[level];
          const s = byK[String(k)] ?? { recallAny: 0, recallAll: 0, ndcg: 0 };
          byK[String(k)] = s;
          s.recallAny += m.recallAny;
          s.recallAll += m.recallAll;
          s.ndcg += m.ndcg;
        }
    }
  }

  /** bucket → { questions, turn: { k: metrics }, session: { k: metrics } }, means rounded to 3 places. */
  summary(): Record<string, LmeBucket> {
    const r3 = (x: number) => Math.round(x * 1000) / 1000;
    const out: Record<string, LmeBucket> = {};
    for (const [key, b] of [...this.#buckets.entries()].sort(([a], [c]) => (a < c ? -1 : 1))) {
      const level = (l: Level) =>
        Object.fromEntries(
          Object.entries(b.sums[l]).map(([k, s]) => [
            k,
            { recallAny: r3(s.recallAny / b.n), recallAll: r3(s.recallAll / b.n), ndcg: r3(s.ndcg / b.n) },
          ]),
        );
      out[key] = { questions: b.n, turn: level('turn'), session: level('session') };
    }
    return out;
  }
}

export interface LmeBucket {
  readonly questions: number;
  readonly turn: Record<string, Metrics>;
  readonly session: Record<string, Metrics>;
}
