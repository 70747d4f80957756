#!/usr/bin/env node
// Package smoke test (run by .ci/run after the suite): what a bot author gets from the tarballs.
//
//   node scripts/smoke-packages.mjs [--keep-dist] [--keep]
//
// 1. packs every publishable package with the repository's pnpm (so `prepack` builds it; dist/ is
//    deleted first unless --keep-dist) and checks each tarball (LICENSE, README, dist, no
//    .tsbuildinfo, no workspace: or exact dependency specs, repository/homepage/bugs);
// 2. installs the tarballs with plain npm into a scratch app made with mkdtemp outside the clone;
// 3. runs the README's bot snippet (extracted verbatim between its markers) on the heuristic LLM
//    and checks that the memory block it builds holds facts;
// 4. typechecks a strict TS file importing the headline types (skipLibCheck false) with
//    moduleResolution nodenext and bundler;
// 5. runs `npx permafrost` (--version, demo, inspect on the file demo created, inspect on a missing
//    file: non-zero exit, nothing created), and `permafrost mcp` on that file through an MCP client
//    of the SDK that @permafrost/mcp installed (tools listed, facts_about answered), and
//    `permafrost inspect --serve` on it (a member page and the shipped static assets);
// 6. `npx permafrost-fetch-model --help`; a conversation.search on a 10,000-message SQLite file
//    runs on the store's read thread (its entry file shipped and loads from the installed packages);
//    without better-sqlite3's driver start() names the fix;
// 7. in a second app with @permafrost/core alone, a sqlite:// URL fails with BACKEND_NOT_INSTALLED.
// Each check prints "[smoke] ok|FAIL <name>"; the last line is "smoke: N passed, N failed".
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import {
  BIG_SEARCH,
  DRIVER,
  HEADLINE_TYPES,
  INSPECTOR_PROBE,
  MCP_CLIENT,
  MISSING_STORE,
  OPEN_SQLITE,
  readmeSnippet,
  tsconfig,
} from './smoke/fixtures.mjs';
import { readTarball } from './smoke/tarball.mjs';
import { binEntry, npmCommand, packPackages, pnpmPath, publishablePackages, REPO_ROOT } from './tools.mjs';

const args = new Set(process.argv.slice(2));
const DEMO_GUILD = '700000000000000001';
const DEMO_ALICE = '710000000000000001';
const MINUTE = 60_000;

if (!pnpmPath() || !existsSync(join(REPO_ROOT, 'node_modules'))) {
  console.error('[smoke] run `node scripts/run.mjs setup` first (pnpm under .tools/, workspace installed)');
  console.log('smoke: 0 passed, 1 failed');
  process.exit(1);
}

/** The environment of a bot author's shell: no npm_* variables inherited from a parent npm. */
function userEnv(extra = {}) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  return {
    ...env,
    npm_config_nodedir: process.env.npm_config_nodedir ?? nodeDir(),
    JOBS: process.env.JOBS ?? '2',
    ...extra,
  };
}

/** better-sqlite3 compiles from source here; node-gyp must find Node's headers offline. */
function nodeDir() {
  if (existsSync('/usr/include/node/node.h')) return '/usr';
  return join(process.execPath, '..', '..');
}

function exec(cmd, argv, options) {
  const r = spawnSync(cmd, argv, { encoding: 'utf8', timeout: 5 * MINUTE, ...options });
  if (r.error) throw r.error;
  return { code: r.status, out: r.stdout ?? '', err: r.stderr ?? '' };
}

function npm(cwd, argv, timeout = 10 * MINUTE) {
  const [cmd, full] = npmCommand(argv);
  return exec(cmd, full, { cwd, env: userEnv(), timeout });
}

function tsc(cwd, project) {
  return exec(process.execPath, [binEntry('typescript', 'tsc'), '-p', project, '--pretty', 'false'], { cwd });
}

function must(r, what) {
  if (r.code !== 0) throw new Error(`${what} exited ${r.code}\n${(r.err || r.out).slice(-3000)}`);
  return r;
}

function assert(ok, message) {
  if (!ok) throw new Error(message);
}

const results = [];
function check(name, fn) {
  const t0 = performance.now();
  try {
    fn();
    results.push(true);
    console.log(`[smoke] ok   ${name} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    return true;
  } catch (error) {
    results.push(false);
    console.log(`[smoke] FAIL ${name}: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  }
}

const scratch = mkdtempSync(join(tmpdir(), 'permafrost-smoke-'));
assert(relative(REPO_ROOT, scratch).startsWith('..'), `scratch dir ${scratch} is inside the clone`);
const packs = join(scratch, 'packs');
const app = join(scratch, 'app');
mkdirSync(packs);
mkdirSync(app);

const publishable = publishablePackages();
let tarballs = new Map();

const packed = check(`pack ${publishable.length} packages through prepack`, () => {
  if (!args.has('--keep-dist'))
    for (const p of publishable) rmSync(join(p.dir, 'dist'), { recursive: true, force: true });
  tarballs = packPackages(packs);
  assert(tarballs.size === publishable.length, `packed ${tarballs.size} of ${publishable.length}`);
});

check('every tarball: LICENSE, README, dist, metadata, dependency ranges, no .tsbuildinfo', () => {
  assert(packed, 'nothing was packed');
  const problems = [];
  for (const [name, file] of tarballs) {
    const files = readTarball(file);
    for (const required of ['LICENSE', 'README.md', 'package.json', 'dist/index.js', 'dist/index.d.ts'])
      if (!files.has(`package/${required}`)) problems.push(`${name}: no ${required}`);
    if ([...files.keys()].some((f) => f.endsWith('.tsbuildinfo')))
      problems.push(`${name}: ships .tsbuildinfo`);
    if (!files.get('package/LICENSE')?.toString('utf8').startsWith('MIT License'))
      problems.push(`${name}: LICENSE is not MIT`);
    const manifest = JSON.parse(files.get('package/package.json')?.toString('utf8') ?? '{}');
    for (const key of ['repository', 'homepage', 'bugs', 'description'])
      if (!manifest[key]) problems.push(`${name}: no "${key}"`);
    if (manifest.license !== 'MIT') problems.push(`${name}: license ${manifest.license}`);
    for (const [dep, spec] of Object.entries({ ...manifest.dependencies, ...manifest.peerDependencies }))
      if (!/^[\^~>]/.test(String(spec))) problems.push(`${name}: ${dep}@${spec} is not a range`);
  }
  assert(problems.length === 0, problems.join('; '));
});

/** package.json of a packed tarball. */
function tarballManifest(name) {
  return JSON.parse(readTarball(tarballs.get(name)).get('package/package.json')?.toString('utf8') ?? '{}');
}

const appManifest = {
  name: 'permafrost-smoke-app',
  private: true,
  type: 'module',
  dependencies: Object.fromEntries([...tarballs].map(([name, file]) => [name, `file:${file}`])),
  devDependencies: { '@types/node': '^20.19.0' },
  // transformers.js 2.17 pins sharp 0.32, whose install script downloads libvips from GitHub.
  overrides: { sharp: '0.34.5' },
};
writeFileSync(join(app, 'package.json'), `${JSON.stringify(appManifest, null, 2)}\n`);

const installed = check('npm install the tarballs into a scratch app outside the clone', () => {
  assert(packed, 'nothing was packed');
  // As the README says: npm 11 runs no dependency install script unless allowed (better-sqlite3
  // builds its driver in one).
  must(npm(app, ['pkg', 'set', 'allowScripts.better-sqlite3=true', '--json']), 'npm pkg set allowScripts');
  must(npm(app, ['install', '--no-audit', '--no-fund']), 'npm install');
  must(
    exec(process.execPath, ['-e', "new (require('better-sqlite3'))(':memory:').close()"], { cwd: app }),
    'loading better-sqlite3',
  );
});

check('README bot snippet (verbatim) on the heuristic LLM prints a memory block with facts', () => {
  assert(installed, 'the app is not installed');
  writeFileSync(join(app, 'bot.ts'), readmeSnippet());
  writeFileSync(join(app, 'tsconfig.bot.json'), tsconfig('nodenext', ['bot.ts'], true));
  must(tsc(app, 'tsconfig.bot.json'), 'tsc (README snippet, strict, skipLibCheck false)');
  writeFileSync(join(app, 'drive.mjs'), DRIVER);
  const r = must(exec(process.execPath, ['drive.mjs'], { cwd: app, env: userEnv() }), 'the snippet driver');
  const { system, replies } = JSON.parse(r.out);
  assert(/\[LONG-TERM MEMORY\]/.test(system), `no memory block in the system prompt:\n${system}`);
  assert(
    /- \[mem:\d+\] .*(omaha|nurse|hiking|ramen)/i.test(system),
    `the memory block holds no fact about Alice:\n${system}`,
  );
  assert(
    replies.length === 1 && !replies[0].includes('[mem:'),
    `the reply was not sent with citations applied: ${replies}`,
  );
  console.log(system.replace(/^/gm, '         '));
});

for (const resolution of ['nodenext', 'bundler'])
  check(`headline types from @permafrost/core typecheck (strict, skipLibCheck false, ${resolution})`, () => {
    assert(installed, 'the app is not installed');
    writeFileSync(join(app, 'headline.ts'), HEADLINE_TYPES);
    writeFileSync(join(app, `tsconfig.${resolution}.json`), tsconfig(resolution, ['headline.ts'], false));
    must(tsc(app, `tsconfig.${resolution}.json`), `tsc (${resolution})`);
  });

check('npx permafrost --version prints the package version', () => {
  assert(installed, 'the app is not installed');
  const r = must(npm(app, ['exec', '--', 'permafrost', '--version'], MINUTE), 'permafrost --version');
  const version = tarballManifest('@permafrost/cli').version;
  assert(r.out.trim() === version, `printed ${JSON.stringify(r.out.trim())}, expected ${version}`);
});

const demoDb = join(app, 'demo.db');
const demo = check('npx permafrost demo --db demo.db', () => {
  assert(installed, 'the app is not installed');
  const r = must(
    npm(app, ['exec', '--', 'permafrost', 'demo', '--db', demoDb], 2 * MINUTE),
    'permafrost demo',
  );
  assert(/\[mem:\d+\]/.test(r.out), `demo printed no memory block:\n${r.out}`);
  assert(existsSync(demoDb), 'demo created no database file');
});

check('npx permafrost inspect on the file demo created', () => {
  assert(demo, 'demo did not run');
  const r = must(
    npm(app, ['exec', '--', 'permafrost', 'inspect', '--db', demoDb, '--guild', DEMO_GUILD], 2 * MINUTE),
    'permafrost inspect',
  );
  assert(/Seattle/i.test(r.out) && !/Facts \(0\)/.test(r.out), `inspect listed no facts:\n${r.out}`);
});

check('permafrost mcp over stdio on the demo file: the SDK client lists the tools and gets facts', () => {
  assert(demo, 'demo did not run');
  writeFileSync(join(app, 'mcp-client.mjs'), MCP_CLIENT);
  const r = must(
    exec(process.execPath, ['mcp-client.mjs', demoDb, DEMO_GUILD, DEMO_ALICE], { cwd: app, env: userEnv() }),
    'mcp-client.mjs',
  );
  const { tools, facts } = JSON.parse(r.out);
  assert(tools.includes('recall') && tools.includes('facts_about') && tools.length === 7, `tools: ${tools}`);
  assert(
    facts.some((f) => /seattle|nurse|hiking|ramen/i.test(f)),
    `facts_about returned ${JSON.stringify(facts)}`,
  );
});

check('permafrost inspect --serve on the demo file: a member page, its CSP and the shipped assets', () => {
  assert(demo, 'demo did not run');
  writeFileSync(join(app, 'inspector-probe.mjs'), INSPECTOR_PROBE);
  const r = must(
    exec(process.execPath, ['inspector-probe.mjs', demoDb, DEMO_GUILD, DEMO_ALICE], {
      cwd: app,
      env: userEnv(),
    }),
    'inspector-probe.mjs',
  );
  const { status, member, csp, js, css } = JSON.parse(r.out);
  assert(status === 200 && /Alice moved to Seattle/.test(member), `member page ${status}`);
  assert(/script-src 'self'/.test(csp ?? ''), `CSP: ${csp}`);
  assert(js && css, 'static/inspector.js or static/inspector.css is not served from the package');
});

check('npx permafrost inspect on a missing file: non-zero exit, names the path, creates nothing', () => {
  assert(installed, 'the app is not installed');
  const missing = join(app, 'typo.db');
  const r = npm(
    app,
    ['exec', '--', 'permafrost', 'inspect', '--db', missing, '--guild', DEMO_GUILD],
    2 * MINUTE,
  );
  assert(r.code !== 0, `exit code ${r.code}:\n${r.out}`);
  assert(r.err.includes(missing), `the error does not name ${missing}:\n${r.err}`);
  assert(!existsSync(missing), `${missing} was created`);
});

check('npx permafrost-fetch-model --help (the model installer ships with embeddings-local)', () => {
  assert(installed, 'the app is not installed');
  const r = must(
    npm(app, ['exec', '--', 'permafrost-fetch-model', '--help'], MINUTE),
    'permafrost-fetch-model --help',
  );
  assert(r.out.includes('--dest'), `unexpected help:\n${r.out}`);
});

check('conversation.search on a 10,000-message SQLite file ranks keywords on the read thread', () => {
  assert(installed, 'the app is not installed');
  writeFileSync(join(app, 'big-search.mjs'), BIG_SEARCH);
  const r = must(exec(process.execPath, ['big-search.mjs'], { cwd: app, env: userEnv() }), 'big-search.mjs');
  const out = JSON.parse(r.out);
  assert(out.hits > 0, `no hits: ${r.out}`);
  // Started once (the entry file shipped and loads from the installed packages), never failed.
  assert(JSON.stringify(out.events) === '["sqlite.read_thread_started"]', `read thread events: ${r.out}`);
});

check("without better-sqlite3's native driver, start() says so and how to approve the build", () => {
  assert(installed, 'the app is not installed');
  const build = join(app, 'node_modules', 'better-sqlite3', 'build');
  renameSync(build, `${build}.off`);
  try {
    writeFileSync(join(app, 'open-sqlite.mjs'), OPEN_SQLITE);
    const r = must(
      exec(process.execPath, ['open-sqlite.mjs'], { cwd: app, env: userEnv() }),
      'open-sqlite.mjs',
    );
    const out = JSON.parse(r.out);
    assert(out.code === 'STORE_UNAVAILABLE', `got ${r.out}`);
    assert(
      out.message.includes('allowScripts.better-sqlite3') && out.message.includes('approve-builds'),
      `no fix in: ${out.message}`,
    );
  } finally {
    renameSync(`${build}.off`, build);
  }
});

check(
  'an app with @permafrost/core alone: sqlite:// fails with BACKEND_NOT_INSTALLED and the install command',
  () => {
    assert(packed, 'nothing was packed');
    const bare = join(scratch, 'core-only');
    mkdirSync(bare);
    const core = tarballs.get('@permafrost/core');
    writeFileSync(
      join(bare, 'package.json'),
      `${JSON.stringify({ name: 'core-only', private: true, type: 'module', dependencies: { '@permafrost/core': `file:${core}` } })}\n`,
    );
    must(npm(bare, ['install', '--no-audit', '--no-fund']), 'npm install (core only)');
    writeFileSync(join(bare, 'missing-store.mjs'), MISSING_STORE);
    const r = must(
      exec(process.execPath, ['missing-store.mjs'], { cwd: bare, env: userEnv() }),
      'missing-store.mjs',
    );
    const out = JSON.parse(r.out);
    assert(out.memoryError && out.code === 'BACKEND_NOT_INSTALLED', `got ${r.out}`);
    assert(
      out.message.includes('npm install @permafrost/store-sqlite'),
      `no install command in: ${out.message}`,
    );
    assert(!existsSync(join(bare, 'missing-store.db')), 'a database file was created');
  },
);

if (!args.has('--keep')) rmSync(scratch, { recursive: true, force: true });
else console.log(`[smoke] scratch app kept in ${scratch}`);
const passed = results.filter(Boolean).length;
console.log(`smoke: ${passed} passed, ${results.length - passed} failed`);
process.exit(passed === results.length ? 0 : 1);
