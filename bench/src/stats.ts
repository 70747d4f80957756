/** Latency summary of a list of samples in milliseconds. */
export interface LatencySummary {
  readonly n: number;
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly mean: number;
  readonly max: number;
}

const round = (x: number) => Math.round(x * 1000) / 1000;

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i] as number;
}

export function summarize(samples: readonly number[]): LatencySummary {
  const sorted = [...samples].sort((a, b) => a - b);
  const sum = sorted.reduce((s, x) => s + x, 0);
  return {
    n: sorted.length,
    p50: round(quantile(sorted, 0.5)),
    p95: round(quantile(sorted, 0.95)),
    p99: round(quantile(sorted, 0.99)),
    mean: round(sorted.length ? sum / sorted.length : 0),
    max: round(sorted[sorted.length - 1] ?? 0),
  };
}

/** Runs fn once per input, timing each call. */
export async function timeEach<T>(
  inputs: readonly T[],
  fn: (input: T) => Promise<unknown>,
): Promise<number[]> {
  const out: number[] = [];
  for (const input of inputs) {
    const t = performance.now();
    await fn(input);
    out.push(performance.now() - t);
  }
  return out;
}

/** A deterministic PRNG (mulberry32), so every run sees the same data. */
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
