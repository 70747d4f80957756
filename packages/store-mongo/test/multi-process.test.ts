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

  const PER_PHASE = 15;
  it('three bot processes (two extracting, one observing): exactly-once extraction, one reply claim winner, opt-out seen across processes, no lost message', async () => {
    const env = {
      MONGO_URL: requireMongoUrl(),
      PF_DB: `${dbName}_bots`,
      PF_GUILD: '1600000000000000999',
      PF_PER_PHASE: String(PER_PHASE),
    };
    const [observer, w1, w2] = await Promise.all([
      run('bot-observer.mjs', env),
      run('bot-worker.mjs', { ...env, PF_OWNER: 'w1', PF_OPT_OUT: '1' }),
      run('bot-worker.mjs', { ...env, PF_OWNER: 'w2' }),
    ]);
    try {
      for (const r of [w1, w2, observer]) expect(r.code, r.stderr).toBe(0);
      const o = observer.out as { receipts: Record<string, Record<string, number>>; claims: string[] };
      const workers = [w1.out, w2.out] as unknown as {
        lines: { marker: string | null; at: number }[];
        claims: string[];
        optOutAt: number | null;
        timedOut: boolean;
      }[];
      // Phase 1: all accepted. Phase 2: the four others accepted, opt's (one in five) ignored as
      // opted out in the observer process, though the opt-out was set by worker w1.
      expect(o.receipts['phase1']).toEqual({ accepted: PER_PHASE });
      expect(o.receipts['phase2']).toEqual({ accepted: (PER_PHASE * 4) / 5 });
      expect(o.receipts['optPhase2']).toEqual({ 'ignored:opted_out': PER_PHASE / 5 });
      for (const w of workers) expect(w.timedOut).toBe(false);
      // Reply claims: each of the 20 messages won by exactly one of the three processes.
      const winners = [o.claims, ...workers.map((w) => w.claims)].flat();
      expect(winners.length).toBe(20);
      expect(new Set(winners).size).toBe(20);
      // Exactly-once extraction: every accepted message of the four members reached exactly one
      // model call of one worker; nothing of opt's reached a model after the opt-out.
      const optOutAt = workers[0]?.optOutAt as number;
      expect(typeof optOutAt).toBe('number');
      const seen = new Map<string, number>();
      for (const w of workers)
        for (const l of w.lines) if (l.marker) seen.set(l.marker, (seen.get(l.marker) ?? 0) + 1);
      const expected = Array.from({ length: 2 * PER_PHASE }, (_, j) => j).filter((j) => j % 5 !== 4);
      for (const j of expected) expect(seen.get(String(j)), `message #${j}`).toBe(1);
      const optLate = workers.flatMap((w) =>
        w.lines.filter((l) => Number(l.marker) % 5 === 4 && l.at > optOutAt),
      );
      expect(optLate).toEqual([]);
      expect(workers.every((w) => w.lines.length > 0)).toBe(true);
      // No lost message: the queue ends with everything processed, nothing pending or dead.
      const store = createMongoStore({ client: client as MongoClient, dbName: env.PF_DB });
      const counts = await store.queue.counts(env.PF_GUILD);
      expect(counts.pending + counts.claimed + counts.dead).toBe(0);
      expect(counts.processed).toBeGreaterThanOrEqual((PER_PHASE * 8) / 5);
    } finally {
      await client?.db(env.PF_DB).dropDatabase();
    }
  }, 300_000);
});
