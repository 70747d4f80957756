import type { Target } from '../schema/bench-result.js';
import type { LatencySummary } from '../stats.js';

export interface SuiteContext {
  /** CI smoke mode: smaller sizes, fewer repetitions (< 3 min for all suites). */
  readonly quick: boolean;
  readonly args: ReadonlyMap<string, string>;
  /** A private temporary folder, removed after the suite. */
  readonly workDir: string;
}

export interface SuiteChart {
  readonly file: string;
  readonly title: string;
  readonly svg: string;
}

export interface SuiteOutput {
  readonly title: string;
  readonly status?: 'ok' | 'partial' | 'not-run';
  readonly notRunReason?: string;
  readonly parameters: Record<string, unknown>;
  readonly samples?: Record<string, { readonly unit: string; readonly values: readonly number[] }>;
  readonly latencies?: Record<string, LatencySummary>;
  readonly ratios?: Record<string, number>;
  readonly results?: Record<string, unknown>;
  readonly targets: readonly Target[];
  readonly charts?: readonly SuiteChart[];
  readonly notes?: readonly string[];
}

export type Suite = (ctx: SuiteContext) => Promise<SuiteOutput>;

const COMPARE = {
  '<': (a: number, b: number) => a < b,
  '<=': (a: number, b: number) => a <= b,
  '>': (a: number, b: number) => a > b,
  '>=': (a: number, b: number) => a >= b,
} as const;

const SYMBOL = { '<': '<', '<=': '≤', '>': '>', '>=': '≥' } as const;

/** A target row; `met` is computed (null when value is null). */
export function target(
  id: string,
  description: string,
  comparator: keyof typeof COMPARE,
  limit: number,
  unit: string,
  value: number | null,
  note?: string,
): Target {
  const rounded = value === null ? null : Math.round(value * 1000) / 1000;
  return {
    id,
    description,
    threshold: `${SYMBOL[comparator]} ${limit.toLocaleString('en-US')}${unit ? ` ${unit}` : ''}`,
    comparator,
    limit,
    unit,
    value: rounded,
    met: value === null || !Number.isFinite(value) ? null : COMPARE[comparator](value, limit),
    ...(note !== undefined ? { note } : {}),
  };
}

/** Wall time of one awaited call, in ms. */
export async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

/** Median of numbers (0 for none). */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

export const round = (x: number, digits = 3): number => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};
