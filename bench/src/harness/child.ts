import { spawn } from 'node:child_process';

/** Runs `node <script> <args>` and parses the last stdout line as JSON; stderr passes through. */
export function runJsonChild<T>(script: string, args: readonly string[], timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', script, ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: process.env,
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString('utf8');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code !== 0) {
        reject(new Error(`${script} ${args.join(' ')} exited with ${signal ?? code}`));
        return;
      }
      const last = out.trim().split('\n').pop() ?? '';
      try {
        resolve(JSON.parse(last) as T);
      } catch {
        reject(new Error(`${script}: no JSON result on stdout`));
      }
    });
  });
}

/** The child side of `runJsonChild`: prints `main()`'s result as one JSON line and exits 0, or 1 with the error on stderr. */
export function replyAsJsonChild(main: () => Promise<unknown>): void {
  main().then(
    (r) => {
      process.stdout.write(`${JSON.stringify(r)}\n`);
      process.exit(0);
    },
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
