#!/usr/bin/env node
// Bootstrap for a fresh machine: make sure pnpm 12.4.2 is available (it is the version the
// lockfile was made with; others refuse it), install the workspace, build it, then run a task.
//
//   node scripts/run.mjs test [vitest args]   install + build + whole test suite (prints "N passed, N failed")
//   node scripts/run.mjs demo                 install + build + the demo
//   node scripts/run.mjs bench [--quick]      install + build + benchmarks
//   node scripts/run.mjs setup                install + build only
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PNPM_VERSION = '12.4.2';
const [task = 'setup', ...rest] = process.argv.slice(2);

function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, env: process.env, ...options });
  if (r.error) throw r.error;
  return r.status ?? 1;
}

function capture(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, env: process.env, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** pnpm 12.4.2 on PATH, else a private copy under .tools/ (installed once with npm). */
function pnpm() {
  if (capture('pnpm', ['--version']) === PNPM_VERSION) return 'pnpm';
  const local = join(root, '.tools', 'node_modules', '.bin', 'pnpm');
  if (!existsSync(local) || capture(local, ['--version']) !== PNPM_VERSION) {
    console.log(`[run] installing pnpm@${PNPM_VERSION} into .tools/`);
    const status = run('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', join(root, '.tools'), `pnpm@${PNPM_VERSION}`]);
    if (status !== 0) process.exit(status);
  }
  return local;
}

/** better-sqlite3 compiles from source here; node-gyp must find Node's headers offline. */
function nodeDir() {
  if (process.env.npm_config_nodedir) return process.env.npm_config_nodedir;
  if (existsSync('/usr/include/node/node.h')) return '/usr';
  return dirname(dirname(process.execPath));
}

process.env.npm_config_nodedir = nodeDir();
process.env.JOBS ??= '2';
const pm = pnpm();
const frozen = run(pm, ['install', '--frozen-lockfile']);
if (frozen !== 0) process.exit(frozen);
const built = run(pm, ['exec', 'tsc', '-b']);
if (built !== 0) process.exit(built);

switch (task) {
  case 'setup':
    break;
  case 'test': {
    const results = join(root, '.vitest-results.json');
    rmSync(results, { force: true });
    const status = run(pm, ['exec', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile=${results}`, ...rest]);
    if (!existsSync(results)) {
      console.log('0 passed, 1 failed');
      process.exit(status || 1);
    }
    const r = JSON.parse(readFileSync(results, 'utf8'));
    const failed = r.numFailedTests + (r.numFailedTestSuites ?? 0);
    console.log(`${r.numPassedTests} passed, ${failed} failed`);
    process.exit(status !== 0 || failed > 0 || r.numTotalTests === 0 ? 1 : 0);
    break;
  }
  case 'demo':
    process.exit(run('node', [join(root, 'packages/cli/dist/bin.js'), 'demo', ...rest]));
    break;
  case 'bench':
    process.exit(run('node', [join(root, 'bench/dist/run.js'), ...rest]));
    break;
  default:
    console.error(`unknown task "${task}" (use test, demo, bench or setup)`);
    process.exit(2);
}
