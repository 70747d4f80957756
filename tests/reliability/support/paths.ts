import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildProjects } from '../../../scripts/tools.mjs';

/** Repository root. */
export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
/** Child-process fixtures (plain ESM that import the BUILT packages, as an application would). */
export const FIXTURES = fileURLToPath(new URL('../fixtures', import.meta.url));

/** `require` resolving from the SQLite store package (better-sqlite3 and sqlite-vec are its dependencies). */
export const storeRequire = createRequire(join(ROOT, 'packages', 'store-sqlite', 'package.json'));

/** Brings `dist/` of core and the SQLite and Mongo stores up to date before children import them. */
export function ensureBuilt(): void {
  buildProjects(['packages/store-sqlite', 'packages/store-mongo']);
}

/** A fresh temporary directory; `cleanup()` removes it. */
export function tempDir(prefix: string): { readonly dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), `permafrost-${prefix}-`));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
