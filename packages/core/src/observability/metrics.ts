/** Fixed-size ring of recent samples for percentile estimates. */
class Samples {
  readonly #values: number[] = [];
  #next = 0;
  #count = 0;
  #sum = 0;
  readonly #capacity: number;

  constructor(capacity = 2048) {
    this.#capacity = capacity;
  }

  add(v: number): void {
    this.#count++;
    this.#sum += v;
    if (this.#values.length < this.#capacity) this.#values.push(v);
    else {
      this.#values[this.#next] = v;
      this.#next = (this.#next + 1) % this.#capacity;
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

export interface LatencySummary {
  readonly count: number;
  readonly sum: number;
  readonly avg: number;
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
}

export interface MetricsSnapshot {
  readonly counters: Readonly<Record<string, number>>;
  readonly latenciesMs: Readonly<Record<string, LatencySummary>>;
}

/** In-process counters and latency summaries; names use `a.b.c` dots, labels are encoded in the name. */
export class MetricsRegistry {
  readonly #counters = new Map<string, number>();
  readonly #latencies = new Map<string, Samples>();

  inc(name: string, by = 1): void {
    this.#counters.set(name, (this.#counters.get(name) ?? 0) + by);
  }

  observe(name: string, ms: number): void {
    let s = this.#latencies.get(name);
    if (!s) {
      s = new Samples();
      this.#latencies.set(name, s);
    }
    s.add(ms);
  }

  snapshot(): MetricsSnapshot {
    return {
      counters: Object.fromEntries([...this.#counters.entries()].sort()),
      latenciesMs: Object.fromEntries(
        [...this.#latencies.entries()].sort().map(([k, s]) => [k, s.summary()]),
      ),
    };
  }
}

const LABEL = /^([a-z0-9_.]+)\{(.*)\}$/;

function promName(name: string): { metric: string; labels: string } {
  const m = LABEL.exec(name);
  const base = (m ? (m[1] as string) : name).replace(/[^a-zA-Z0-9_]/g, '_');
  return { metric: `permafrost_${base}`, labels: m ? `{${m[2]}}` : '' };
}

/** Prometheus text exposition of a snapshot (counters as counters, latencies as summaries). */
export function renderPrometheus(
  snapshot: MetricsSnapshot,
  gauges: Readonly<Record<string, number>> = {},
): string {
  const lines: string[] = [];
  const typed = new Set<string>();
  const type = (metric: string, kind: string) => {
    if (!typed.has(metric)) {
      typed.add(metric);
      lines.push(`# TYPE ${metric} ${kind}`);
    }
  };
  for (const [name, value] of Object.entries(snapshot.counters)) {
    const { metric, labels } = promName(name);
    type(`${metric}_total`, 'counter');
    lines.push(`${metric}_total${labels} ${value}`);
  }
  for (const [name, value] of Object.entries(gauges)) {
    const { metric, labels } = promName(name);
    type(metric, 'gauge');
    lines.push(`${metric}${labels} ${value}`);
  }
  for (const [name, s] of Object.entries(snapshot.latenciesMs)) {
    const { metric, labels } = promName(`${name}_ms`);
    type(metric, 'summary');
    const inner = labels ? `${labels.slice(1, -1)},` : '';
    for (const [q, v] of [
      ['0.5', s.p50],
      ['0.95', s.p95],
      ['0.99', s.p99],
    ] as const)
      lines.push(`${metric}{${inner}quantile="${q}"} ${v}`);
    lines.push(`${metric}_sum${labels} ${s.sum}`, `${metric}_count${labels} ${s.count}`);
  }
  return `${lines.join('\n')}\n`;
}
