/** Evidence recall of one question at one k (benchmarks.md §1.3). */
export interface RecallAtK {
  /** Official partial credit: share of evidence ids retrieved. */
  readonly frac: number;
  /** 1 when every evidence id was retrieved. */
  readonly all: number;
  /** 1 when at least one evidence id was retrieved. */
  readonly any: number;
}

/**
 * `ranked` holds, best first, the dia_ids each retrieved item contributes (a turn one, an
 * observation all of its own). Questions with empty evidence must be skipped by the caller.
 */
export function scoreQuestion(
  ranked: readonly (readonly string[])[],
  evidence: readonly string[],
  k: number,
): RecallAtK {
  const got = new Set<string>();
  for (const ids of ranked.slice(0, k)) for (const id of ids) got.add(id);
  const hit = evidence.filter((e) => got.has(e)).length;
  return { frac: hit / evidence.length, all: hit === evidence.length ? 1 : 0, any: hit > 0 ? 1 : 0 };
}

export interface Bucket {
  n: number;
  readonly sums: Map<number, { frac: number; all: number; any: number }>;
}

export interface Summary {
  readonly n: number;
  /** k → percentages (one decimal). */
  readonly atK: Readonly<Record<string, { frac: number; all: number; any: number }>>;
}

export class RecallTally {
  readonly #ks: readonly number[];
  readonly #buckets = new Map<string, Bucket>();

  constructor(ks: readonly number[]) {
    this.#ks = ks;
  }

  add(category: number, ranked: readonly (readonly string[])[], evidence: readonly string[]): void {
    const keys = [`category_${category}`, 'overall', ...(category <= 4 ? ['overall_1_4'] : [])];
    for (const key of keys) {
      let b = this.#buckets.get(key);
      if (!b) {
        b = { n: 0, sums: new Map() };
        this.#buckets.set(key, b);
      }
      b.n++;
      for (const k of this.#ks) {
        const s = scoreQuestion(ranked, evidence, k);
        const acc = b.sums.get(k) ?? { frac: 0, all: 0, any: 0 };
        b.sums.set(k, { frac: acc.frac + s.frac, all: acc.all + s.all, any: acc.any + s.any });
      }
    }
  }

  summary(): Record<string, Summary> {
    const out: Record<string, Summary> = {};
    const pct = (x: number, n: number) => Math.round((1000 * x) / Math.max(1, n)) / 10;
    for (const key of [...this.#buckets.keys()].sort()) {
      const b = this.#buckets.get(key) as Bucket;
      const atK: Record<string, { frac: number; all: number; any: number }> = {};
      for (const [k, s] of b.sums)
        atK[String(k)] = { frac: pct(s.frac, b.n), all: pct(s.all, b.n), any: pct(s.any, b.n) };
      out[key] = { n: b.n, atK };
    }
    return out;
  }
}
