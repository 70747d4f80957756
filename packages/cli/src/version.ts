import { readFileSync } from 'node:fs';

/** The version of this package (its package.json sits one folder above `dist/` and `src/`). */
export function cliVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version?: unknown;
  };
  return typeof pkg.version === 'string' ? pkg.version : 'unknown';
}
