import { register } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { LATENCY_BUCKETS_SECONDS, MetricsRegistry } from '../../src/observability/metrics.js';
import { ALICE, CHANNEL, GUILD, harness, op, ops } from './helpers.js';

interface Family {
  help?: string;
  type?: string;
  samples: { name: string; labels: Record<string, string>; value: number }[];
}

/** A small parser of the Prometheus text format: families by name, with HELP, TYPE and samples. */
function parse(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const family = (name: string) => {
    let f = families.get(name);
    if (!f) {
      f = { samples: [] };
      families.set(name, f);
    }
    return f;
  };
  let current = '';
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const meta = /^# (HELP|TYPE) (\S+) (.*)$/.exec(line);
    if (meta) {
      const [, kind, name, rest] = meta as unknown as [string, string, string, string];
      current = name;
      if (kind === 'HELP') family(name).help = rest;
      else family(name).type = rest;
      continue;
    }
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!sample) throw new Error(`not a Prometheus line: ${line}`);
    const [, name, labelText, value] = sample as unknown as [string, string, string | undefined, string];
    const labels = Object.fromEntries(
      [...(labelText ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((m) => [
        m[1],
        m[2],
      ]),
    );
    expect(name.startsWith(current), `${name} belongs to the family ${current}`).toBe(true);
    family(current).samples.push({ name, labels, value: Number(value) });
  }
  return families;
}

async function exercised() {
  const h = harness();
  h.llm.script('extraction', ops(op({ text: 'Alice grows tomatoes on her balcony', category: 'interests' })));
  await h.say(ALICE, 'i grow tomatoes on my balcony every summer');
  await h.say(ALICE, 'ok');
  await h.say(ALICE, 'they are finally turning red this week');
  await h.say(ALICE, 'planning to try peppers next year too');
  await h.memory.flush();
  await h.memory.recall({ guildId: GUILD, text: 'what does alice grow?', scope: 'guild' });
  await h.memory.promptContext({ guildId: GUILD, askerId: ALICE, text: 'what does alice grow?' });
  await h.memory.context({
    guildId: GUILD,
    channelId: CHANNEL,
    askerId: ALICE,
    text: 'what does alice grow?',
    mode: 'deep',
  });
  return h;
}

describe('ops.metrics()', () => {
  it('renders Prometheus text from prom-client: HELP and TYPE for every family, counters, histograms in seconds', async () => {
    const h = await exercised();
    const metrics = await h.memory.ops.metrics();
    const text = metrics.prometheus();
    const families = parse(text);
    expect(families.size).toBeGreaterThan(10);
    for (const [name, f] of families) {
      expect(name).toMatch(/^permafrost_[a-z0-9_]+$/);
      expect(f.help, `${name} has HELP`).toMatch(/\S/);
      expect(['counter', 'histogram'], `${name} is a counter or a histogram`).toContain(f.type);
      if (f.type === 'counter') expect(name).toMatch(/_total$/);
      if (f.type === 'histogram') expect(name).toMatch(/_duration_seconds$/);
    }
    expect(text).toContain('# TYPE permafrost_observe_total counter');
    expect(text).toContain('# TYPE permafrost_recall_duration_seconds histogram');
    expect(text).not.toMatch(/_ms\b|quantile=/);

    const observed = families.get('permafrost_observe_total')?.samples ?? [];
    expect(observed).toContainEqual({
      name: 'permafrost_observe_total',
      labels: { status: 'accepted' },
      value: 3,
    });
    expect(observed).toContainEqual({
      name: 'permafrost_observe_total',
      labels: { status: 'ignored', reason: 'empty_content' },
      value: 1,
    });
    expect(families.get('permafrost_ingest_batches_total')?.samples[0]?.value).toBeGreaterThanOrEqual(1);
    const llmCalls = families.get('permafrost_llm_calls_total')?.samples ?? [];
    expect(llmCalls).toContainEqual({
      name: 'permafrost_llm_calls_total',
      labels: { purpose: 'extraction' },
      value: metrics.meter.byPurpose['extraction']?.calls,
    });

    // histograms: one bucket per bound (0.1 ms … 10 s) and +Inf, cumulative, with sum in seconds
    const recall = families.get('permafrost_recall_duration_seconds')?.samples ?? [];
    const buckets = recall.filter((s) => s.name.endsWith('_bucket'));
    expect(buckets.map((b) => b.labels['le'])).toEqual([...LATENCY_BUCKETS_SECONDS.map(String), '+Inf']);
    expect(buckets.at(-1)?.value).toBe(1);
    for (let i = 1; i < buckets.length; i++)
      expect(buckets[i]?.value).toBeGreaterThanOrEqual(buckets[i - 1]?.value ?? 0);
    const sumSeconds = recall.find((s) => s.name === 'permafrost_recall_duration_seconds_sum')?.value;
    expect(sumSeconds).toBeCloseTo((metrics.latenciesMs['recall']?.sum ?? Number.NaN) / 1000, 9);
    expect(recall.find((s) => s.name.endsWith('_count'))?.value).toBe(1);
    const context = families.get('permafrost_context_duration_seconds')?.samples ?? [];
    expect(context.find((s) => s.name.endsWith('_count'))).toMatchObject({
      labels: { mode: 'deep' },
      value: 1,
    });

    expect(metrics.prometheusContentType).toMatch(/^text\/plain; version=0\.0\.4/);
    await h.memory.close();
  });

  it('keeps the JS snapshot: counters by name with labels, latencies in ms with percentiles', async () => {
    const h = await exercised();
    const metrics = await h.memory.ops.metrics();
    expect(metrics.counters).toMatchObject({
      'observe{status="accepted"}': 3,
      'observe{status="ignored",reason="empty_content"}': 1,
      'context.queries{mode="deep"}': 1,
      'context.cache_misses': 1,
      'context.timeouts': 0,
    });
    expect(Object.keys(metrics.latenciesMs)).toEqual(
      expect.arrayContaining([
        'observe',
        'recall',
        'prompt_context',
        'context{mode="deep"}',
        'context.long_term',
      ]),
    );
    const observe = metrics.latenciesMs['observe'];
    expect(observe?.count).toBe(4);
    expect(observe?.avg).toBeCloseTo((observe?.sum ?? 0) / 4, 9);
    expect(observe?.p50).toBeGreaterThan(0);
    expect(observe?.p95).toBeGreaterThanOrEqual(observe?.p50 ?? 0);
    expect(observe?.p99).toBeGreaterThanOrEqual(observe?.p95 ?? 0);
    await h.memory.close();
  });

  it('each memory has its own registry; the global prom-client registry stays empty', async () => {
    const a = await exercised();
    const b = harness();
    await b.say(ALICE, 'just one message here');
    const [ma, mb] = await Promise.all([a.memory.ops.metrics(), b.memory.ops.metrics()]);
    expect(ma.counters['observe{status="accepted"}']).toBe(3);
    expect(mb.counters['observe{status="accepted"}']).toBe(1);
    expect(mb.prometheus()).not.toContain('permafrost_llm_calls_total{');
    expect(register.getMetricsAsArray()).toEqual([]);
    await a.memory.close();
    await b.memory.close();
  });

  it('model usage counters follow the token meter (a reset meter restarts them) and never go below 0', async () => {
    const metrics = new MetricsRegistry();
    const totals = {
      calls: 2,
      failedCalls: 1,
      promptTokens: -5,
      completionTokens: Number.NaN,
      costUsd: 0.25,
    };
    const meter = (t: typeof totals) => ({
      byPurpose: { extraction: { ...t, unpricedCalls: 0 } },
      total: { ...t, unpricedCalls: 0 },
    });
    metrics.syncMeter(meter(totals));
    let text = await metrics.prometheus();
    expect(text).toContain('permafrost_llm_calls_total{purpose="extraction"} 2\n');
    expect(text).toContain('permafrost_llm_failed_calls_total{purpose="extraction"} 1\n');
    expect(text).toContain('permafrost_llm_prompt_tokens_total{purpose="extraction"} 0\n');
    expect(text).toContain('permafrost_llm_completion_tokens_total{purpose="extraction"} 0\n');
    expect(text).toContain('permafrost_llm_cost_usd_total{purpose="extraction"} 0.25\n');
    metrics.syncMeter(meter({ ...totals, calls: 3 }));
    expect(await metrics.prometheus()).toContain('permafrost_llm_calls_total{purpose="extraction"} 3\n');
    metrics.syncMeter({ byPurpose: {}, total: meter(totals).total });
    text = await metrics.prometheus();
    expect(text).toContain('# TYPE permafrost_llm_calls_total counter');
    expect(text).not.toContain('permafrost_llm_calls_total{');
  });
});
