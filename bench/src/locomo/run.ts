/**
 * LoCoMo evidence-recall harness (benchmarks.md §1.3), turn level (conversation.search over raw
 * messages) and observation level (recall over facts with dia_id provenance).
 *
 *   pnpm exec tsc -b && pnpm exec tsc -b bench
 *   node bench/dist/locomo/run.js [--level=turn|observation|both] [--ablations] [--conversations=N]
 *                                 [--data=path/to/locomo10.json] [--config='{"retrieval":{...}}']
 *                                 [--out=bench/results] [--write=false]
 *
 * Writes bench/results/locomo.json and locomo.md. `runLocomo({ makeEmbedder })` runs it with
 * another embedder (e.g. the local model) from code.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ABLATIONS, type AblationResult, ablationResult, renderAblations } from './ablations.js';
import {
  createHashingEmbedder,
  type Embedder,
  type MemoryConfig,
  type MemoryStore,
  parseConfig,
} from './core.js';
import { loadLocomo } from './dataset.js';
import { runObservationLevel } from './observation-level.js';
import { type LevelResult, renderMarkdown } from './report.js';
import { runTurnLevel } from './turn-level.js';

export interface LocomoOptions {
  readonly dataPath: string;
  readonly levels?: readonly ('turn' | 'observation')[];
  readonly ks?: readonly number[];
  /** Another embedder (e.g. a local model); default: the hashing embedder of the config. */
  readonly makeEmbedder?: () => Embedder | Promise<Embedder>;
  /** Another store (default in-memory); one fresh store per conversation. */
  readonly makeStore?: () => MemoryStore | Promise<MemoryStore>;
  /** Configuration overrides (retrieval, lifecycle, embeddings). */
  readonly config?: Parameters<typeof parseConfig>[0];
  /** Only the first N conversations (quick runs). */
  readonly conversations?: number;
}

export interface LocomoRun {
  readonly meta: Record<string, unknown>;
  readonly levels: LevelResult[];
}

function gitSha(): string {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'packages/core/src', 'bench/src'], {
      encoding: 'utf8',
    }).trim();
    return dirty ? `${sha}+dirty` : sha;
  } catch {
    return 'unknown';
  }
}

/** Runs the LoCoMo recall harness and returns the results (writes nothing). */
export async function runLocomo(options: LocomoOptions): Promise<LocomoRun> {
  const config: MemoryConfig = parseConfig({
    storage: 'memory',
    llm: null,
    access: { requireAudience: false },
    ...options.config,
  });
  const ks = options.ks ?? [5, 10, 25, 50];
  const levels = options.levels ?? ['turn', 'observation'];
  const dims = config.embeddings.provider === 'hashing' ? config.embeddings.dimensions : 256;
  const makeEmbedder = options.makeEmbedder ?? (() => createHashingEmbedder({ dimensions: dims }));
  const all = await loadLocomo(options.dataPath);
  const conversations = all.slice(0, options.conversations ?? all.length);
  const probe = await makeEmbedder();
  const embedderId = probe.id;
  await probe.close();
  const results: LevelResult[] = [];
  for (const level of levels) {
    const t0 = performance.now();
    const common = {
      ks,
      config: { embeddings: config.embeddings, retrieval: config.retrieval, lifecycle: config.lifecycle },
      makeEmbedder,
      ...(options.makeStore ? { makeStore: options.makeStore } : {}),
    };
    if (level === 'turn') {
      const r = await runTurnLevel(conversations, common);
      results.push({
        level,
        questions: r.questions,
        meanQueryMs: r.meanSearchMs,
        loadAndQueryMs: performance.now() - t0,
        summary: r.summary,
      });
    } else {
      const r = await runObservationLevel(conversations, common);
      results.push({
        level,
        questions: r.questions,
        refused: r.refused,
        meanQueryMs: r.meanRecallMs,
        loadAndQueryMs: performance.now() - t0,
        summary: r.summary,
      });
    }
  }
  const data = await readFile(options.dataPath);
  return {
    meta: {
      benchmark: 'locomo-evidence-recall',
      gitSha: gitSha(),
      node: process.version,
      date: new Date().toISOString(),
      dataSha256: createHash('sha256').update(data).digest('hex'),
      conversations: conversations.length,
      ks,
      embedder: embedderId,
      store: options.makeStore ? 'custom' : 'memory',
      retrieval: config.retrieval,
      lifecycle: { decayStabilityDays: config.lifecycle.decayStabilityDays },
      scoring: 'benchmarks.md §1.3: normalised evidence, empty evidence skipped, frac/all/any',
    },
    levels: results,
  };
}

const DATA_ENV = 'LOCOMO_PATH';

function findData(repoRoot: string): string {
  const candidates = [
    process.env[DATA_ENV],
    join(repoRoot, '..', 'shared', 'data', 'locomo', 'locomo10.json'),
    join(repoRoot, '..', '..', 'shared', 'data', 'locomo', 'locomo10.json'),
  ].filter((p): p is string => typeof p === 'string');
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error('locomo10.json not found: pass --data=<path> or set LOCOMO_PATH');
  return found;
}

async function main(): Promise<void> {
  const here = dirname(fileURLToPath(import.meta.url));
  const repoRoot = resolve(here, '..', '..', '..');
  const args = new Map(
    process.argv.slice(2).map((a) => {
      const eq = a.indexOf('=');
      const k = a.replace(/^--/, '').slice(0, eq < 0 ? undefined : eq - (a.startsWith('--') ? 2 : 0));
      return [k, eq < 0 ? 'true' : a.slice(eq + 1)];
    }),
  );
  const level = args.get('level') ?? 'both';
  const run = await runLocomo({
    dataPath: args.get('data') ?? findData(repoRoot),
    levels: level === 'both' ? ['turn', 'observation'] : [level as 'turn' | 'observation'],
    ...(args.has('conversations') ? { conversations: Number(args.get('conversations')) } : {}),
    ...(args.has('config') ? { config: JSON.parse(args.get('config') as string) } : {}),
  });
  const ks = (run.meta as { ks: number[] }).ks;
  let md = renderMarkdown(run.meta, run.levels, ks);
  const ablations: AblationResult[] = [];
  if (args.get('ablations') === 'true') {
    for (const a of ABLATIONS) {
      if (!run.levels.some((l) => l.level === a.level)) continue;
      const variant = await runLocomo({
        dataPath: args.get('data') ?? findData(repoRoot),
        levels: [a.level],
        config: { retrieval: a.retrieval },
        ...(args.has('conversations') ? { conversations: Number(args.get('conversations')) } : {}),
      });
      const level = variant.levels[0];
      if (level) ablations.push(ablationResult(a, level, ks));
    }
    md += `\n${renderAblations(ablations, run.levels, ks)}`;
  }
  if (args.get('write') !== 'false') {
    const out = resolve(repoRoot, args.get('out') ?? 'bench/results');
    await mkdir(out, { recursive: true });
    await writeFile(join(out, 'locomo.json'), `${JSON.stringify({ ...run, ablations }, null, 2)}\n`);
    await writeFile(join(out, 'locomo.md'), md);
  }
  process.stdout.write(md);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
}
