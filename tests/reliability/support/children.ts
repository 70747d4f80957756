import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { FIXTURES } from './paths.js';

export interface ChildExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Lines the child wrote to stdout that parse as JSON. */
  readonly messages: unknown[];
}

/** A JSON line a child printed: `event` names it; other fields depend on the fixture. */
export interface ChildMessage {
  readonly event?: unknown;
  readonly receipt?: { readonly messageId: string; readonly status: string; readonly reason: string | null };
  readonly [key: string]: unknown;
}

export interface Child {
  readonly process: ChildProcess;
  readonly exit: Promise<ChildExit>;
  /** Resolves with the first JSON line for which `predicate` holds. */
  waitFor(predicate: (message: ChildMessage) => boolean): Promise<ChildMessage>;
  kill(): void;
}

/**
 * Runs a fixture (`fixtures/<name>.mjs`) in a separate Node process with one JSON argument. Children
 * report by writing JSON lines to stdout. `uid`/`gid` run it as another user (used to drop root).
 */
export function startChild(name: string, args: unknown, options: { uid?: number; gid?: number } = {}): Child {
  const child = spawn(process.execPath, [join(FIXTURES, `${name}.mjs`), JSON.stringify(args)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.uid !== undefined ? { uid: options.uid } : {}),
    ...(options.gid !== undefined ? { gid: options.gid } : {}),
  });
  let stdout = '';
  let stderr = '';
  let buffered = '';
  const messages: unknown[] = [];
  const waiters: {
    predicate: (m: ChildMessage) => boolean;
    resolve: (m: ChildMessage) => void;
  }[] = [];
  child.stdout?.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    stdout += text;
    buffered += text;
    let nl = buffered.indexOf('\n');
    while (nl >= 0) {
      const line = buffered.slice(0, nl).trim();
      buffered = buffered.slice(nl + 1);
      nl = buffered.indexOf('\n');
      if (!line.startsWith('{')) continue;
      let parsed: ChildMessage;
      try {
        parsed = JSON.parse(line) as ChildMessage;
      } catch {
        continue;
      }
      messages.push(parsed);
      for (const w of [...waiters])
        if (w.predicate(parsed)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(parsed);
        }
    }
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exit = new Promise<ChildExit>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr, messages }));
  });
  return {
    process: child,
    exit,
    waitFor(predicate) {
      const seen = messages.find((m) => predicate(m as ChildMessage));
      if (seen) return Promise.resolve(seen as ChildMessage);
      return new Promise((resolve, reject) => {
        waiters.push({ predicate, resolve });
        exit.then(
          (e) =>
            reject(
              new Error(
                `child ${name} exited (${e.code ?? e.signal}) before the awaited message: ${e.stderr}`,
              ),
            ),
          reject,
        );
      });
    },
    kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

/** Runs a child to completion and returns its last JSON line (throws on a non-zero exit). */
export async function runChild<T>(
  name: string,
  args: unknown,
  options: { uid?: number; gid?: number } = {},
): Promise<T> {
  const e = await startChild(name, args, options).exit;
  if (e.code !== 0) throw new Error(`child ${name} exited with ${e.code ?? e.signal}: ${e.stderr}`);
  return e.messages[e.messages.length - 1] as T;
}
