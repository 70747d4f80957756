/**
 * Runs one suite in this process and writes `<out>/<suite>.json` (+ its SVG charts):
 *
 *   node bench/dist/run-suite.js <suite> [--quick] [--out=dir]
 *
 * `bench/dist/run.js` starts one such process per suite, so each suite gets a fresh heap (peak RSS
 * is per suite) and a crash stays contained.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_DIR, loadAverage, parseArgs } from './harness/env.js';
import type { Suite } from './harness/suite.js';
import { writeSuiteResult } from './harness/write.js';

export const SUITES: Record<string, () => Promise<Suite>> = {
  observe: async () => (await import('./suites/observe.js')).observeSuite,
  recall: async () => (await import('./suites/recall.js')).recallSuite,
  context: async () => (await import('./suites/context.js')).contextSuite,
  extraction: async () => (await import('./suites/extraction.js')).extractionSuite,
  'locomo-recall': async () => (await import('./suites/locomo-recall.js')).locomoRecallSuite,
  longmemeval: async () => (await import('./suites/longmemeval.js')).longMemEvalSuite,
  ablation: async () => (await import('./suites/ablation.js')).ablationSuite,
  embeddings: async () => (await import('./suites/embeddings.js')).embeddingsSuite,
  mem0: async () => (await import('./suites/mem0.js')).mem0Suite,
  flood: async () => (await import('./suites/flood.js')).floodSuite,
  'history-import': async () => (await import('./suites/history-import.js')).historyImportSuite,
};

export const SUITE_NAMES = Object.keys(SUITES);

export function resultsDir(args: ReadonlyMap<string, string>): string {
  const out = args.get('out');
  if (out) return resolve(out);
  return join(BENCH_DIR, 'results', args.get('quick') === 'true' ? 'quick' : '');
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const name = args.get('_0');
  const load = name ? SUITES[name] : undefined;
  if (!name || !load) throw new Error(`usage: run-suite.js <${SUITE_NAMES.join('|')}> [--quick] [--out=dir]`);
  const quick = args.get('quick') === 'true';
  const loadBefore = loadAverage();
  const startedAt = new Date();
  const t0 = performance.now();
  const workDir = mkdtempSync(join(tmpdir(), `permafrost-bench-${name}-`));
  try {
    const suite = await load();
    const out = await suite({ quick, args, workDir });
    const doc = writeSuiteResult(resultsDir(args), name, out, {
      quick,
      loadBefore,
      startedAt,
      seconds: (performance.now() - t0) / 1000,
    });
    const missed = doc.targets.filter((t) => t.met === false).length;
    const met = doc.targets.filter((t) => t.met === true).length;
    process.stdout.write(
      `[bench] ${name}: ${doc.status}, ${met} target(s) met, ${missed} missed, ${doc.durationSeconds} s\n`,
    );
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
