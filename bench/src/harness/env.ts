import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { arch, cpus, loadavg, platform, release, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root (bench/dist/harness → ../../..). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const BENCH_DIR = join(REPO_ROOT, 'bench');

const round2 = (x: number) => Math.round(x * 100) / 100;

export function loadAverage(): number[] {
  return loadavg().map(round2);
}

export function machineInfo(loadBefore: number[]) {
  const cpu = cpus();
  return {
    cpuModel: cpu[0]?.model.trim() || 'unknown',
    cores: Math.max(1, cpu.length),
    totalMemoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    platform: platform(),
    arch: arch(),
    release: release(),
    loadAverageBefore: loadBefore,
    loadAverageAfter: loadAverage(),
  };
}

/** Short sha of HEAD, with `+dirty` when library or bench sources differ from it. */
export function gitSha(): string {
  try {
    const opts = {
      cwd: REPO_ROOT,
      encoding: 'utf8' as const,
      stdio: ['ignore', 'pipe', 'ignore'] as ('ignore' | 'pipe')[],
    };
    const sha = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], opts).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'packages', 'bench/src'], opts).trim();
    return dirty ? `${sha}+dirty` : sha;
  } catch {
    return 'unknown';
  }
}

/** `--name=value`, `--name value` and bare `--flag` arguments. */
export function parseArgs(argv: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (!a.startsWith('--')) {
      out.set(`_${out.size}`, a);
      continue;
    }
    const eq = a.indexOf('=');
    if (eq > 0) out.set(a.slice(2, eq), a.slice(eq + 1));
    else {
      const next = argv[i + 1];
      if (next !== undefined && !next.startsWith('--') && !['quick'].includes(a.slice(2))) {
        out.set(a.slice(2), next);
        i++;
      } else out.set(a.slice(2), 'true');
    }
  }
  return out;
}

const LOCOMO_ENV = 'LOCOMO_PATH';

/** Where LoCoMo lives: LOCOMO_PATH, or shared/ next to the clone or its worktree parent. */
export function locomoPath(): string | null {
  const candidates = [
    process.env[LOCOMO_ENV],
    join(REPO_ROOT, '..', 'shared', 'data', 'locomo', 'locomo10.json'),
    join(REPO_ROOT, '..', '..', 'shared', 'data', 'locomo', 'locomo10.json'),
    '/work/shared/data/locomo/locomo10.json',
  ].filter((p): p is string => typeof p === 'string' && p.length > 0);
  return candidates.find((p) => existsSync(p)) ?? null;
}

const LONGMEMEVAL_ENV = 'LONGMEMEVAL_DEV_PATH';

/** Where the LongMemEval-S dev split lives: LONGMEMEVAL_DEV_PATH, or shared/ next to the clone. */
export function longMemEvalPath(): string | null {
  const candidates = [
    process.env[LONGMEMEVAL_ENV],
    join(REPO_ROOT, '..', 'shared', 'data', 'longmemeval-s-dev'),
    join(REPO_ROOT, '..', '..', 'shared', 'data', 'longmemeval-s-dev'),
    '/work/shared/data/longmemeval-s-dev',
  ].filter((p): p is string => typeof p === 'string' && p.length > 0);
  return candidates.find((p) => existsSync(join(p, 'PROVENANCE.md'))) ?? null;
}

/** Peak resident set size of this process so far (VmHWM), in MiB; falls back to current RSS. */
export function peakRssMiB(): number {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const m = /VmHWM:\s+(\d+)\s+kB/.exec(status);
    if (m?.[1]) return Math.round((Number(m[1]) / 1024) * 10) / 10;
  } catch {
    // not Linux
  }
  return Math.round((process.memoryUsage().rss / 2 ** 20) * 10) / 10;
}

export const rssMiB = (): number => Math.round((process.memoryUsage().rss / 2 ** 20) * 10) / 10;

/** Current RSS split into anonymous memory (heap, native) and file-backed pages (mmap'ed SQLite file, code), MiB. */
export function rssBreakdownMiB(): { anon: number; file: number; shmem: number } | null {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)\\s+kB`).exec(status)?.[1] ?? 0);
    const mib = (x: number) => Math.round((x / 1024) * 10) / 10;
    return { anon: mib(kb('RssAnon')), file: mib(kb('RssFile')), shmem: mib(kb('RssShmem')) };
  } catch {
    return null;
  }
}
