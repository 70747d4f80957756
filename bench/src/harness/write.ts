import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BenchResult, benchResultJsonSchema, validateBenchResult } from '../schema/bench-result.js';
import { gitSha, machineInfo } from './env.js';
import type { SuiteOutput } from './suite.js';

const MAX_SAMPLES = 5000;

function series(unit: string, values: readonly number[]) {
  const stride = Math.max(1, Math.ceil(values.length / MAX_SAMPLES));
  const kept = stride === 1 ? values : values.filter((_, i) => i % stride === 0);
  return {
    unit,
    count: values.length,
    sampled: stride > 1,
    values: kept.map((v) => Math.round(v * 10_000) / 10_000),
  };
}

/** Wraps a suite's output in the common envelope, validates it and writes JSON + charts. */
export function writeSuiteResult(
  outDir: string,
  suite: string,
  out: SuiteOutput,
  meta: { quick: boolean; loadBefore: number[]; startedAt: Date; seconds: number },
): BenchResult {
  mkdirSync(outDir, { recursive: true });
  for (const c of out.charts ?? []) writeFileSync(join(outDir, c.file), c.svg);
  const doc = validateBenchResult({
    schemaVersion: 1,
    suite,
    title: out.title,
    status: out.status ?? 'ok',
    ...(out.notRunReason !== undefined ? { notRunReason: out.notRunReason } : {}),
    quick: meta.quick,
    machine: machineInfo(meta.loadBefore),
    node: process.version,
    gitSha: gitSha(),
    date: meta.startedAt.toISOString(),
    durationSeconds: Math.round(meta.seconds * 10) / 10,
    parameters: out.parameters,
    samples: Object.fromEntries(
      Object.entries(out.samples ?? {}).map(([k, s]) => [k, series(s.unit, s.values)]),
    ),
    latencies: out.latencies ?? {},
    ratios: out.ratios ?? {},
    results: out.results ?? {},
    targets: out.targets,
    charts: (out.charts ?? []).map((c) => ({ file: c.file, title: c.title })),
    notes: out.notes ?? [],
  });
  writeFileSync(join(outDir, `${suite}.json`), `${JSON.stringify(doc, null, 2)}\n`);
  writeFileSync(join(outDir, 'schema.json'), `${JSON.stringify(benchResultJsonSchema(), null, 2)}\n`);
  return doc;
}
