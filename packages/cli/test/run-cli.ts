import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..', '..');
/** The built CLI entry point (tests build `packages/cli` first). */
export const CLI_BIN = join(root, 'packages', 'cli', 'dist', 'bin.js');

/** Runs the CLI as a real process in `cwd` and returns its exit code and output. */
export function runCli(cwd: string, args: readonly string[]) {
  const r = spawnSync(process.execPath, [CLI_BIN, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
