import type { OpsMetrics } from '@permafrost/core';
import type { Bar } from './svg-charts.js';

/** Model usage by purpose, from the bot's Prometheus endpoint or from this process's meter. */
export interface ModelUsage {
  /** `bot`: read from --metrics-url; `process`: the inspector's own meter; `unreachable`: the URL failed. */
  readonly source: 'bot' | 'process' | 'unreachable';
  readonly calls: readonly Bar[];
  readonly failedCalls: readonly Bar[];
  readonly costUsd: readonly Bar[];
  readonly promptTokens: readonly Bar[];
  /** Extraction batches completed. */
  readonly batches: number;
}

const MAX_BYTES = 1_048_576;
const TIMEOUT_MS = 2_000;
const SAMPLE = /^permafrost_([a-z_]+)(?:\{([^}]*)\})?\s+(\S+)$/;

/** A loopback http(s) URL (the inspector talks to nothing off this machine), else null. */
export function loopbackUrl(value: string): URL | null {
  try {
    const url = new URL(value);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const loopback = host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
    return (url.protocol === 'http:' || url.protocol === 'https:') && loopback && url.username === ''
      ? url
      : null;
  } catch {
    return null;
  }
}

/**
 * Reads the counters this page charts from a Prometheus text exposition (as
 * `memory.ops.metrics().prometheus()` writes it): `permafrost_llm_*_total{purpose="…"}` and
 * `permafrost_ingest_batches_total`. Other lines are ignored.
 */
export function parsePrometheus(text: string): Omit<ModelUsage, 'source'> {
  const by = new Map<string, Map<string, number>>();
  let batches = 0;
  for (const line of text.split('\n')) {
    const m = SAMPLE.exec(line.trim());
    if (!m) continue;
    const [, name, labels = '', raw] = m;
    const value = Number(raw);
    if (!Number.isFinite(value)) continue;
    if (name === 'ingest_batches_total') batches += value;
    const purpose = /(?:^|,)purpose="([^"\\]{1,40})"/.exec(labels)?.[1];
    if (!purpose || !name?.startsWith('llm_')) continue;
    const series = by.get(name) ?? new Map<string, number>();
    series.set(purpose, (series.get(purpose) ?? 0) + value);
    by.set(name, series);
  }
  const bars = (name: string): Bar[] =>
    [...(by.get(name) ?? new Map<string, number>())].map(([label, value]) => ({ label, value }));
  return {
    calls: bars('llm_calls_total'),
    failedCalls: bars('llm_failed_calls_total'),
    costUsd: bars('llm_cost_usd_total'),
    promptTokens: bars('llm_prompt_tokens_total'),
    batches,
  };
}

export function usageOfProcess(metrics: OpsMetrics): ModelUsage {
  const purposes = Object.entries(metrics.meter.byPurpose);
  return {
    source: 'process',
    calls: purposes.map(([label, t]) => ({ label, value: t.calls })),
    failedCalls: purposes.map(([label, t]) => ({ label, value: t.failedCalls })),
    costUsd: purposes.map(([label, t]) => ({ label, value: t.costUsd })),
    promptTokens: purposes.map(([label, t]) => ({ label, value: t.promptTokens })),
    batches: metrics.counters['ingest.batches'] ?? 0,
  };
}

/** The bot's usage from its metrics endpoint (bounded in time and size), or `unreachable`. */
export async function usageOfBot(url: URL): Promise<ModelUsage> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'error' });
    if (!res.ok) throw new Error(`status ${res.status}`);
    const text = await res.text();
    if (text.length > MAX_BYTES) throw new Error('too large');
    return { source: 'bot', ...parsePrometheus(text) };
  } catch {
    return { source: 'unreachable', calls: [], failedCalls: [], costUsd: [], promptTokens: [], batches: 0 };
  }
}
