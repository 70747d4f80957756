// The repository's own tools, run without PATH: scripts and tests never spawn a bare `pnpm`, `tsc`,
// `npm` or `node`. JavaScript tools run under this very Node (process.execPath) from their entry file
// in node_modules; pnpm is the private copy scripts/run.mjs installs under .tools/.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root. */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The pnpm version the lockfile was made with (others refuse it). */
export const PNPM_VERSION = '12.4.2';

const rootRequire = createRequire(join(REPO_ROOT, 'package.json'));

/** Absolute path of the entry file of `bin` in the installed package `pkg` (a workspace root devDependency). */
export function binEntry(pkg, bin = pkg) {
  const manifestPath = rootRequire.resolve(`${pkg}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const rel = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.[bin];
  if (!rel) throw new Error(`${pkg} has no "${bin}" bin (${manifestPath})`);
  return join(dirname(manifestPath), rel);
}

/** `[command, args]` running a JavaScript tool under this Node, e.g. `nodeTool('typescript', 'tsc', ['-b'])`. */
export function nodeTool(pkg, bin, args) {
  return [process.execPath, [binEntry(pkg, bin), ...args]];
}

/** The private pnpm under .tools/ (a native executable in pnpm 12), or null when not installed yet. */
export function pnpmPath() {
  const exe = join(REPO_ROOT, '.tools', 'node_modules', 'pnpm', 'pnpm');
  return existsSync(exe) ? exe : null;
}

/**
 * npm as `[command, args]` under this Node: the npm that launched us (npm_execpath), else the one
 * shipped next to this Node binary.
 */
export function npmCommand(args) {
  const launched = process.env.npm_execpath;
  if (launched && /npm-cli\.js$/.test(launched) && existsSync(launched))
    return [process.execPath, [launched, ...args]];
  const prefix = dirname(dirname(process.execPath));
  for (const candidate of [
    join(prefix, 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'),
    join(prefix, 'node_modules', 'npm', 'bin', 'npm-cli.js'),
    '/usr/share/nodejs/npm/bin/npm-cli.js',
  ])
    if (existsSync(candidate)) return [process.execPath, [candidate, ...args]];
  throw new Error(`npm-cli.js not found next to ${process.execPath}`);
}

function sleepSync(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * `tsc -b <projects>` with the repository's TypeScript. Test files run in parallel workers and
 * several of them build before spawning children, so builds are serialised with a lock directory
 * under .tmp/ (taken over after 2 minutes).
 */
export function buildProjects(projects, options = {}) {
  const lockDir = join(REPO_ROOT, '.tmp');
  const lock = join(lockDir, 'tsc-build.lock');
  mkdirSync(lockDir, { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      try {
        if (Date.now() - statSync(lock).mtimeMs > 120_000) rmSync(lock, { recursive: true, force: true });
      } catch {
        // The holder released it meanwhile.
      }
      sleepSync(100);
    }
  }
  try {
    const [cmd, args] = nodeTool('typescript', 'tsc', ['-b', ...projects]);
    execFileSync(cmd, args, { cwd: REPO_ROOT, stdio: options.stdio ?? 'pipe' });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** The publishable packages (packages/* without "private"): `{ dir, manifest }` each. */
export function publishablePackages() {
  const root = join(REPO_ROOT, 'packages');
  return readdirSync(root)
    .map((name) => join(root, name))
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }))
    .filter((p) => !p.manifest.private);
}

/**
 * Packs every publishable package into `dest` with the private pnpm (which runs each package's
 * `prepack`: build + LICENSE, and turns workspace: ranges into version ranges). Returns package
 * name → tarball path.
 */
export function packPackages(dest, options = {}) {
  const pnpm = pnpmPath();
  if (!pnpm) throw new Error('pnpm is not installed under .tools/ (run `node scripts/run.mjs setup`)');
  mkdirSync(dest, { recursive: true });
  const tarballs = new Map();
  for (const { dir, manifest } of publishablePackages()) {
    const before = new Set(readdirSync(dest));
    execFileSync(pnpm, ['pack', '--pack-destination', dest], { cwd: dir, stdio: options.stdio ?? 'pipe' });
    const created = readdirSync(dest).filter((f) => !before.has(f) && f.endsWith('.tgz'));
    const expected = `${manifest.name.replace('@', '').replace('/', '-')}-${manifest.version}.tgz`;
    const file = created.length === 1 ? created[0] : expected;
    if (!existsSync(join(dest, file))) throw new Error(`pnpm pack in ${dir} wrote no ${expected}`);
    tarballs.set(manifest.name, join(dest, file));
  }
  return tarballs;
}
