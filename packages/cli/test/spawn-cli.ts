import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { buildProjects } from '../../../scripts/tools.mjs';

const root = join(import.meta.dirname, '..', '..', '..');
/** The built entry point, run with this very Node binary (never a tool from PATH). */
export const CLI_BIN = join(root, 'packages', 'cli', 'dist', 'bin.js');

export function buildCli(): void {
  buildProjects(['packages/cli']);
}

export interface CliRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly out: string;
  readonly err: string;
}

export interface CliOptions {
  readonly cwd: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Called once the process is running (e.g. to signal it later). */
  readonly onSpawn?: (child: ReturnType<typeof spawn>) => void;
}

/**
 * Runs the CLI asynchronously (the test process keeps serving loopback HTTP servers meanwhile),
 * with colour variables cleared unless given.
 */
export function runCli(args: readonly string[], options: CliOptions): Promise<CliRun> {
  const env: Record<string, string | undefined> = { ...process.env, NODE_OPTIONS: '' };
  delete env['NO_COLOR'];
  delete env['FORCE_COLOR'];
  Object.assign(env, options.env ?? {});
  const child = spawn(process.execPath, [CLI_BIN, ...args], { cwd: options.cwd, env });
  options.onSpawn?.(child);
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    err += d;
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, out, err }));
  });
}
