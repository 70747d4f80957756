import { Counter, Histogram, Registry } from 'prom-client';
import type { PricedMeterSnapshot } from '../ports/meter.js';

/** Latency buckets in seconds: 0.1 ms to 10 s, about ×2.5 apart. */
export const LATENCY_BUCKETS_SECONDS: readonly number[] = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

interface MetricDef {
  readonly help: string;
  readonly labels: readonly string[];
}

/** Counters, by snapshot name (`a.b`); Prometheus: `permafrost_a_b_total`. */
const COUNTERS = {
  observe: {
    help: 'Messages passed to observe(), by receipt status (accepted, ignored, rejected) and reason.',
    labels: ['status', 'reason'],
  },
  'recall.errors': { help: 'recall() calls that answered store_unavailable.', labels: [] },
  'prompt_context.errors': { help: 'promptContext() calls that answered store_unavailable.', labels: [] },
  'context.queries': { help: 'context() calls, by mode.', labels: ['mode'] },
  'context.errors': {
    help: 'context() calls whose recent messages or long-term lookup failed.',
    labels: [],
  },
  'context.cache_hits': { help: 'context() long-term lookups answered from the cache.', labels: [] },
  'context.cache_misses': { help: 'context() long-term lookups that missed the cache.', labels: [] },
  'context.timeouts': {
    help: 'context() long-term lookups abandoned at the deadline (long_term_timeout).',
    labels: [],
  },
  'ingest.batches': { help: 'Extraction batches completed by this process.', labels: [] },
} as const satisfies Record<string, MetricDef>;

/** Latencies, by snapshot name; Prometheus: `permafrost_<name>_duration_seconds` histograms. */
const LATENCIES = {
  observe: { help: 'Time of one observe() call, in seconds.', labels: [] },
  observe_many: { help: 'Time of one observeMany() call (all its messages), in seconds.', labels: [] },
  recall: { help: 'Time of one recall() call, in seconds.', labels: [] },
  prompt_context: { help: 'Time of one promptContext() call, in seconds.', labels: [] },
  context: { help: 'Time of one context() call, in seconds, by mode.', labels: ['mode'] },
  'context.long_term': {
    help: 'Time of the long-term part of one context() call (cache, lookup or timeout), in seconds.',
    labels: [],
  },
} as const satisfies Record<string, MetricDef>;

/** Model usage, from the token meter (reset with it); by purpose. */
const LLM = {
  calls: ['llm_calls_total', 'Model calls that answered, by purpose.'],
  failedCalls: [
    'llm_failed_calls_total',
    'Model calls that failed (LLM_UNAVAILABLE, LLM_CAPABILITY), by purpose.',
  ],
  promptTokens: ['llm_prompt_tokens_total', 'Prompt tokens of answered model calls, by purpose.'],
  completionTokens: ['llm_completion_tokens_total', 'Completion tokens of answered model calls, by purpose.'],
  costUsd: [
    'llm_cost_usd_total',
    'Cost of answered model calls in US dollars (provider-reported or priced), by purpose.',
  ],
} as const;

export type CounterName = keyof typeof COUNTERS;
export type LatencyName = keyof typeof LATENCIES;
type LabelsOf<D extends MetricDef> = Partial<Record<D['labels'][number], string>>;

const SAMPLE_CAPACITY = 1024;

/** The latest SAMPLE_CAPACITY samples of one latency (for percentiles), with exact count and sum. */
class RecentSamples {
  readonly #values: number[] = [];
  #next = 0;
  #count = 0;
  #sum = 0;

  add(v: number): void {
    this.#count++;
    this.#sum += v;
    if (this.#values.length < SAMPLE_CAPACITY) this.#values.push(v);
    else {
      this.#values[this.#next] = v;
      this.#next = (this.#next + 1) % SAMPLE_CAPACITY;
    }
  }

  summary(): LatencySummary {
    const sorted = [...this.#values].sort((a, b) => a - b);
    const q = (p: number) =>
      sorted.length === 0
        ? 0
        : (sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number);
    return {
      count: this.#count,
      sum: this.#sum,
      avg: this.#count === 0 ? 0 : this.#sum / this.#count,
      p50: q(0.5),
      p95: q(0.95),
      p99: q(0.99),
    };
  }
}

/** Milliseconds; percentiles over the latest 1,024 calls, count and sum over all. */
export interface LatencySummary {
  readonly count: number;
  readonly sum: number;
  readonly avg: number;
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
}

export interface MetricsSnapshot {
  /** By name with labels, e.g. `context.timeouts`, `observe{status="accepted"}`. */
  readonly counters: Readonly<Record<string, number>>;
  /** By name with labels, e.g. `recall`, `context{mode="normal"}`. */
  readonly latenciesMs: Readonly<Record<string, LatencySummary>>;
}

/** `name{a="x",b="y"}` in the order the metric declares its labels; `name` without labels. */
function keyOf(
  name: string,
  labelNames: readonly string[],
  labels: Readonly<Record<string, string | number | undefined>>,
) {
  const parts = labelNames.flatMap((l) => (labels[l] === undefined ? [] : [`${l}="${labels[l]}"`]));
  return parts.length === 0 ? name : `${name}{${parts.join(',')}}`;
}

const promBase = (name: string) => `permafrost_${name.replace(/\./g, '_')}`;

/**
 * One Memory's metrics, on a private prom-client registry (never the global one; no default
 * process metrics): counters as `permafrost_*_total` counters, latencies as
 * `permafrost_*_duration_seconds` histograms, every metric with HELP text. The JS snapshot keeps
 * the `a.b{label="v"}` names and millisecond summaries.
 */
export class MetricsRegistry {
  readonly #registry = new Registry();
  readonly #counters = new Map<CounterName, Counter>();
  readonly #histograms = new Map<LatencyName, Histogram>();
  readonly #samples = new Map<string, RecentSamples>();
  readonly #llm: Record<keyof typeof LLM, Counter>;

  constructor() {
    const registers = [this.#registry];
    for (const [name, def] of Object.entries(COUNTERS) as [CounterName, MetricDef][])
      this.#counters.set(
        name,
        new Counter({ name: `${promBase(name)}_total`, help: def.help, labelNames: def.labels, registers }),
      );
    for (const [name, def] of Object.entries(LATENCIES) as [LatencyName, MetricDef][])
      this.#histograms.set(
        name,
        new Histogram({
          name: `${promBase(name)}_duration_seconds`,
          help: def.help,
          labelNames: def.labels,
          buckets: [...LATENCY_BUCKETS_SECONDS],
          registers,
        }),
      );
    const llm = (key: keyof typeof LLM) =>
      new Counter({
        name: `permafrost_${LLM[key][0]}`,
        help: LLM[key][1],
        labelNames: ['purpose'],
        registers,
      });
    this.#llm = {
      calls: llm('calls'),
      failedCalls: llm('failedCalls'),
      promptTokens: llm('promptTokens'),
      completionTokens: llm('completionTokens'),
      costUsd: llm('costUsd'),
    };
  }

  inc<N extends CounterName>(name: N, labels: LabelsOf<(typeof COUNTERS)[N]> = {}, by = 1): void {
    (this.#counters.get(name) as Counter).inc(labels as Record<string, string>, by);
  }

  /** Records one call's latency in milliseconds (the histogram gets seconds). */
  observe<N extends LatencyName>(name: N, ms: number, labels: LabelsOf<(typeof LATENCIES)[N]> = {}): void {
    (this.#histograms.get(name) as Histogram).observe(labels as Record<string, string>, ms / 1000);
    const key = keyOf(name, LATENCIES[name].labels, labels);
    let s = this.#samples.get(key);
    if (!s) {
      s = new RecentSamples();
      this.#samples.set(key, s);
    }
    s.add(ms);
  }

  /** Sets the model-usage counters to the meter's totals (a reset meter starts them again from 0). */
  syncMeter(meter: PricedMeterSnapshot): void {
    for (const c of Object.values(this.#llm)) c.reset();
    // a counter only goes up: a provider's odd usage numbers (negative, NaN) count as 0
    const total = (v: number) => (Number.isFinite(v) && v > 0 ? v : 0);
    for (const [purpose, t] of Object.entries(meter.byPurpose)) {
      const labels = { purpose };
      this.#llm.calls.inc(labels, total(t.calls));
      this.#llm.failedCalls.inc(labels, total(t.failedCalls));
      this.#llm.promptTokens.inc(labels, total(t.promptTokens));
      this.#llm.completionTokens.inc(labels, total(t.completionTokens));
      this.#llm.costUsd.inc(labels, total(t.costUsd));
    }
  }

  async snapshot(): Promise<MetricsSnapshot> {
    const counters: [string, number][] = [];
    for (const [name, counter] of this.#counters) {
      const labelNames = COUNTERS[name].labels;
      for (const v of (await counter.get()).values)
        counters.push([keyOf(name, labelNames, v.labels), v.value]);
    }
    return {
      counters: Object.fromEntries(counters.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
      latenciesMs: Object.fromEntries(
        [...this.#samples.entries()]
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([k, s]) => [k, s.summary()]),
      ),
    };
  }

  /** Prometheus text exposition (version 0.0.4) of every metric, from prom-client. */
  prometheus(): Promise<string> {
    return this.#registry.metrics();
  }

  /** The Content-Type to serve `prometheus()` with. */
  get contentType(): string {
    return this.#registry.contentType;
  }
}
