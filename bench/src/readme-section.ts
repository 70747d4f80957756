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

const START = '<!-- bench:start -->';
const END = '<!-- bench:end -->';

export function renderSection(resultsDir: string): string {
  const results = loadResults(resultsDir).filter((r) => !r.quick);
  const first = results[0];
  const lines = [
    START,
    '',
    first
      ? `Measured by \`pnpm bench\` on ${first.machine.cpuModel} ×${first.machine.cores}, node ${first.node}, git ${first.gitSha} (${first.date.slice(0, 10)}); details, raw samples and charts in [bench/results](bench/results/README.md).`
      : 'No benchmark results yet: run `pnpm bench`.',
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
