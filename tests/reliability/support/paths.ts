import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root. */
export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
/** Child-process fixtures (plain ESM that import the BUILT packages, as an application would). */
export const FIXTURES = fileURLToPath(new URL('../fixtures', import.meta.url));

/** `require` resolving from the SQLite store package (better-sqlite3 and sqlite-vec are its dependencies). */
export const storeRequire = createRequire(join(ROOT, 'packages', 'store-sqlite', 'package.json'));

const LOCK = join(tmpdir(), 'permafrost-reliability-build.lock');

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Brings `dist/` of core and the SQLite store up to date before children import them. Test files
 * run in parallel workers, so builds are serialised with a lock directory (stale after 2 minutes).
 */
export function ensureBuilt(): void {
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      try {
        if (Date.now() - statSync(LOCK).mtimeMs > 120_000) rmSync(LOCK, { recursive: true, force: true });
      } catch {
        // The holder released it meanwhile.
      }
      sleepSync(100);
    }
  }
  try {
    execFileSync('pnpm', ['exec', 'tsc', '-b', 'packages/store-sqlite', 'packages/store-mongo'], {
      cwd: ROOT,
      stdio: 'pipe',
    });
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** A fresh temporary directory; `cleanup()` removes it. */
export function tempDir(prefix: string): { readonly dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), `permafrost-${prefix}-`));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
