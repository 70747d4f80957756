import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSqliteStore } from '@permafrost/store-sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProjects } from '../../../scripts/tools.mjs';

const WORKER = fileURLToPath(new URL('./fixtures/queue-worker.mjs', import.meta.url));

interface WorkerReport {
  readonly worker: string;
  readonly enqueued: string[];
  readonly claimed: string[];
  readonly completed: number;
  readonly errors: string[];
}

function runWorker(path: string, name: string, durationMs: number): Promise<WorkerReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WORKER, path, name, String(durationMs), '7'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`worker ${name} exited with ${code}: ${err}`));
      else resolve(JSON.parse(out) as WorkerReport);
    });
  });
}

describe('two OS processes on one SQLite file', () => {
  let dir: string;
  beforeAll(() => {
    // The workers import the built package, so make sure dist/ is current.
    buildProjects(['packages/store-sqlite']);
    dir = mkdtempSync(join(tmpdir(), 'permafrost-mp-'));
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('enqueue and claim concurrently: no busy errors, no double claims, nothing lost', async () => {
    const path = join(dir, 'shared.db');
    const setup = createSqliteStore({ path });
    await setup.setup();
    await setup.close();

    const reports = await Promise.all([runWorker(path, 'w1', 3000), runWorker(path, 'w2', 3000)]);

    expect(reports.flatMap((r) => r.errors)).toEqual([]);
    const enqueued = reports.flatMap((r) => r.enqueued);
    const claimed = reports.flatMap((r) => r.claimed);
    expect(enqueued.length).toBeGreaterThan(200);
    expect(new Set(claimed).size).toBe(claimed.length);
    expect([...claimed].sort()).toEqual([...enqueued].sort());
    expect(reports.reduce((n, r) => n + r.completed, 0)).toBe(enqueued.length);
    // Both processes did real work on the shared keys.
    for (const r of reports) expect(r.claimed.length).toBeGreaterThan(0);

    const check = createSqliteStore({ path });
    expect(await check.queue.counts('guild-mp')).toEqual({
      pending: 0,
      claimed: 0,
      processed: enqueued.length,
      dead: 0,
    });
    await check.close();
  }, 60_000);
});
