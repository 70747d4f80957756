/**
 * The benchmark entry point (`pnpm bench [--quick] [--only=a,b] [--out=dir]`): one child process
 * per suite (fresh heap, contained crashes), then bench/results/README.md, and after a full run
 * the performance block of the root README.md.
 *
 *   --quick   CI smoke: small sizes, few repetitions (< 3 min); writes bench/results/quick/
 *   --only    a comma-separated subset of suites
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, REPO_ROOT } from './harness/env.js';
import { updateReadme } from './readme-section.js';
import { loadResults, writeResultsReadme } from './results-readme.js';
import { resultsDir, SUITE_NAMES } from './run-suite.js';

const args = parseArgs(process.argv.slice(2));
const quick = args.get('quick') === 'true';
const only = args.get('only')?.split(',').filter(Boolean) ?? SUITE_NAMES;
const unknown = only.filter((s) => !SUITE_NAMES.includes(s));
if (unknown.length > 0) {
  process.stderr.write(`unknown suite(s): ${unknown.join(', ')} (known: ${SUITE_NAMES.join(', ')})\n`);
  process.exit(2);
}
const out = resultsDir(args);
const script = fileURLToPath(new URL('./run-suite.js', import.meta.url));
const t0 = performance.now();
const failed: string[] = [];
const times: string[] = [];
for (const suite of only) {
  const ts = performance.now();
  process.stdout.write(`[bench] ${suite}${quick ? ' (quick)' : ''} …\n`);
  const r = spawnSync(
    process.execPath,
    ['--expose-gc', script, suite, ...(quick ? ['--quick'] : []), `--out=${out}`],
    { stdio: 'inherit', cwd: REPO_ROOT, env: process.env, timeout: (quick ? 5 : 120) * 60_000 },
  );
  if (r.status !== 0) failed.push(suite);
  times.push(`${suite} ${((performance.now() - ts) / 1000).toFixed(1)} s`);
}
writeResultsReadme(out);
const results = loadResults(out);
const targets = results.flatMap((r) => r.targets.map((t) => ({ suite: r.suite, ...t })));
process.stdout.write('\n| suite | target | measured | status |\n| --- | --- | ---: | --- |\n');
for (const t of targets)
  process.stdout.write(
    `| ${t.suite} | ${t.description} (${t.threshold}) | ${t.value ?? '–'} ${t.unit} | ${t.met === true ? 'met' : t.met === false ? 'MISSED' : 'not measured'} |\n`,
  );
if (!quick && only.length === SUITE_NAMES.length && failed.length === 0) {
  updateReadme(join(REPO_ROOT, 'README.md'), out);
  process.stdout.write('\nREADME.md performance section regenerated.\n');
}
process.stdout.write(
  `\n[bench] ${times.join(', ')}; total ${((performance.now() - t0) / 1000).toFixed(1)} s; results in ${out}\n`,
);
if (failed.length > 0) {
  process.stderr.write(`[bench] suite(s) failed: ${failed.join(', ')}\n`);
  process.exit(1);
}
