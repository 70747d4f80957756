import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMongoStore } from '@permafrost/store-mongo';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProjects } from '../../../scripts/tools.mjs';
import { mongoSelected, requireMongoUrl } from './backend-selection.js';

const here = dirname(fileURLToPath(import.meta.url));
const pkg = join(here, '..');
const root = join(pkg, '..', '..');

function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

/** The child processes import the built package: rebuild it (and core) when a source is newer. */
function buildIfStale(): void {
  let built = 0;
  try {
    built = Math.min(
      statSync(join(pkg, 'dist', 'index.js')).mtimeMs,
      statSync(join(root, 'packages/core/dist/index.js')).mtimeMs,
    );
  } catch {
    built = 0;
  }
  const sources = Math.max(newest(join(pkg, 'src')), newest(join(root, 'packages/core/src')));
  if (sources > built) buildProjects(['packages/store-mongo']);
}

interface ChildResult {
  readonly code: number | null;
  readonly out: Record<string, unknown>;
  readonly stderr: string;
}

function run(script: string, env: Record<string, string>): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(here, 'multi-process', script)], {
      cwd: pkg,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const line = stdout.trim().split('\n').pop() ?? '';
      let out: Record<string, unknown> = {};
      try {
        out = JSON.parse(line) as Record<string, unknown>;
      } catch {
        out = {};
      }
      resolve({ code, out, stderr });
    });
  });
}

interface WorkerOut {
  owner: string;
  completed: string[];
  intervals: { key: string; start: number; end: number }[];
  shortfalls: unknown[];
  claims: number;
  timedOut: boolean;
}

describe.runIf(mongoSelected)('mongo queue across processes', () => {
  let client: MongoClient | undefined;
  const dbName = `pf_mp_${process.pid}_${Date.now().toString(36)}`;

  beforeAll(async () => {
    const url = requireMongoUrl();
    client = new MongoClient(url, { serverSelectionTimeoutMS: 5_000 });
    await client.connect();
    buildIfStale();
  }, 180_000);

  afterAll(async () => {
    await client?.db(dbName).dropDatabase();
    await client?.close();
  });

  it('two workers process 2,000 messages of 20 authors exactly once, never one key at the same time', async () => {
    const env = {
      MONGO_URL: requireMongoUrl(),
      PF_DB: dbName,
      PF_GUILD: 'g-mp',
      PF_MESSAGES: '2000',
      PF_AUTHORS: '20',
    };
    const [observer, w1, w2] = await Promise.all([
      run('observer.mjs', env),
      run('worker.mjs', { ...env, PF_OWNER: 'w1' }),
      run('worker.mjs', { ...env, PF_OWNER: 'w2' }),
    ]);
    for (const r of [observer, w1, w2]) expect(r.code, r.stderr).toBe(0);
    expect((observer.out as { outcomes?: unknown }).outcomes).toEqual({
      accepted: 2000,
      duplicate: 0,
      over_capacity: 0,
    });
    const workers = [w1.out, w2.out] as unknown as WorkerOut[];
    for (const w of workers) {
      expect(w.timedOut).toBe(false);
      expect(w.shortfalls).toEqual([]);
    }
    // Exactly once: every message completed by exactly one worker, exactly one time.
    const times = new Map<string, number>();
    for (const w of workers) for (const id of w.completed) times.set(id, (times.get(id) ?? 0) + 1);
    expect(times.size).toBe(2000);
    expect([...times.values()].every((n) => n === 1)).toBe(true);
    // Both workers did real work (the test would prove nothing with one idle worker).
    expect(workers.every((w) => w.claims > 0)).toBe(true);
    // No key held by both workers at once.
    const [a, b] = workers as [WorkerOut, WorkerOut];
    const overlaps = a.intervals.flatMap((x) =>
      b.intervals.filter((y) => y.key === x.key && x.start < y.end && y.start < x.end).map((y) => [x, y]),
    );
    expect(overlaps).toEqual([]);
    // Final state through the store: everything processed, nothing pending, claimed or dead.
    const store = createMongoStore({ client: client as MongoClient, dbName });
    expect(await store.queue.counts('g-mp')).toEqual({ pending: 0, claimed: 0, processed: 2000, dead: 0 });
  }, 300_000);
});
