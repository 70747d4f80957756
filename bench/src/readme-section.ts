/**
 * Regenerates the block between `<!-- bench:start -->` and `<!-- bench:end -->` in the root
 * README.md (adding a "## Performance" section before "## Packages" when the markers are absent)
 * from bench/results/*.json. Run by `pnpm bench` after a full run, or alone:
 *
 *   node bench/dist/readme-section.js
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from './harness/env.js';
import { loadResults, targetRows } from './results-readme.js';
import type { BenchResult } from './schema/bench-result.js';

const START = '<!-- bench:start -->';
const END = '<!-- bench:end -->';

/**
 * Where the results were measured: one machine, node and commit, or, when suites were run apart,
 * the suites of each machine with their commit and date (timings from different machines do not
 * compare).
 */
export function measuredOn(results: readonly BenchResult[]): string {
  const details = 'raw samples and charts in [bench/results](bench/results/README.md)';
  if (results.length === 0) return 'No benchmark results yet: run `pnpm bench`.';
  const machine = (r: BenchResult) => `${r.machine.cpuModel} ×${r.machine.cores}`;
  const run = (r: BenchResult) =>
    `git ${r.gitSha.slice(0, 7)}${r.gitSha.endsWith('+dirty') ? '+dirty' : ''}, ${r.date.slice(0, 10)}`;
  const nodes = [...new Set(results.map((r) => r.node))].join(', ');
  const first = results[0] as BenchResult;
  if (results.every((r) => machine(r) === machine(first) && run(r) === run(first)))
    return `Measured by \`pnpm bench\` on ${machine(first)}, node ${nodes}, ${run(first)}; details, ${details}.`;
  const byMachine = new Map<string, string[]>();
  for (const r of results)
    byMachine.set(machine(r), [...(byMachine.get(machine(r)) ?? []), `${r.suite} (${run(r)})`]);
  const parts = [...byMachine].map(([m, suites]) => `on ${m}: ${suites.join(', ')}`);
  const apart =
    byMachine.size > 1
      ? ' Timings from different machines do not compare with each other; counts (round trips, calls, recall) do.'
      : '';
  return `Measured by \`pnpm bench\` (node ${nodes}), suites run apart, ${parts.join('; ')}.${apart} Details, ${details}.`;
}

export function renderSection(resultsDir: string): string {
  const results = loadResults(resultsDir).filter((r) => !r.quick);
  const lines = [
    START,
    '',
    measuredOn(results),
    '',
    '| suite | target | threshold | measured | status |',
    '| --- | --- | --- | ---: | --- |',
    ...targetRows(results),
    '',
    END,
  ];
  return lines.join('\n');
}

export function updateReadme(readmePath: string, resultsDir: string): boolean {
  const before = readFileSync(readmePath, 'utf8');
  const block = renderSection(resultsDir);
  let after: string;
  const s = before.indexOf(START);
  const e = before.indexOf(END);
  if (s >= 0 && e > s) after = `${before.slice(0, s)}${block}${before.slice(e + END.length)}`;
  else {
    const section = `## Performance\n\n${block}\n\n`;
    const at = before.indexOf('## Packages');
    after =
      at >= 0 ? `${before.slice(0, at)}${section}${before.slice(at)}` : `${before.trimEnd()}\n\n${section}`;
  }
  if (after !== before) writeFileSync(readmePath, after);
  return after !== before;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const changed = updateReadme(join(REPO_ROOT, 'README.md'), join(REPO_ROOT, 'bench', 'results'));
  process.stdout.write(
    changed ? 'README.md performance section updated\n' : 'README.md performance section unchanged\n',
  );
}
