/**
 * The recall suite's result types (what recall-worker.ts and mongo-ops-worker.ts print) and the
 * targets it checks.
 */
import type { QueryPlan } from '@permafrost/store-mongo';
import type { Backend } from '../harness/seed.js';
import { target } from '../harness/suite.js';
import type { LatencySummary } from '../stats.js';

export interface CommandStats {
  operations: number;
  meanCommands: number;
  maxCommands: number;
  meanRoundTrips: number;
  maxRoundTrips: number;
  byCommand?: Record<string, number>;
}

/** Commands and round trips of promptContext and recall with one query plan (recall-round-trips.ts). */
export interface PlanStats {
  queryPlan: QueryPlan;
  promptContext: CommandStats;
  recall: CommandStats;
}

/** Store-call waves (recall-worker.ts, wavesPass): the critical path in store calls. */
export interface WaveStats {
  operations: number;
  meanCalls: number;
  meanWaves: number;
  maxWaves: number;
}

export interface QueryResult {
  promptContext: {
    samples: number[];
    summary: LatencySummary;
    p50: number;
    p95: number;
    perRepP95: number[];
  };
  /** The same questions asked in one of four seed channels (default policy: a quarter of the facts visible). */
  promptContextWithAudience: {
    samples: number[];
    summary: LatencySummary;
    p50: number;
    p95: number;
    perRepP95: number[];
    meanFacts: number;
  };
  recall: { samples: number[]; summary: LatencySummary; p50: number; p95: number; perRepP95: number[] };
  meanFactsPerPromptContext: number;
  warnings: Record<string, number>;
  rssStartMiB: number;
  rssAfterMiB: number;
  rssSplitMiB: { anon: number; file: number; shmem: number } | null;
  peakRssMiB: number;
  storeProfile: { requests: number; meanPromptContextMs: number; calls: unknown[] };
  /** With the store's own plan on this server; on FerretDB also with the MongoDB plan. */
  commands: (PlanStats & { mongodbPlan: PlanStats | null }) | null;
  storeWaves: { promptContext: WaveStats; recall: WaveStats } | null;
}

export interface Row {
  backend: Backend;
  size: number;
  seedSeconds: number;
  seedFactsPerSecond: number;
  query: QueryResult;
}

/** Commands per observe and per extraction commit (mongo-ops-worker.ts). */
export type OpsStats = {
  observe: CommandStats;
  extractionCommit: CommandStats & {
    factsPerCommit: number;
    reinforcedPerCommit: number;
    supersededPerCommit: number;
  };
};

/** Commands of the largest Mongo guild that counted them (10k unless --quick). */
export function mongoCommands(rows: readonly Row[]) {
  return rows.filter((r) => r.backend === 'mongo' && r.query.commands).at(-1)?.query.commands ?? null;
}

/** The MongoDB plan's counts: measured with it on FerretDB, or the store's own plan on MongoDB. */
export function mongodbPlanCommands(rows: readonly Row[]): PlanStats | null {
  const own = mongoCommands(rows);
  if (!own) return null;
  return own.queryPlan === 'mongodb' ? own : own.mongodbPlan;
}

/** The suite's targets: SQLite latency and memory, and on Mongo latency and round trips. */
export function recallTargets(
  rows: readonly Row[],
  backends: readonly Backend[],
  mongoKind: 'ferretdb' | 'mongodb' | null,
  ops: OpsStats | null,
  quick: boolean,
) {
  const at = (backend: Backend, size: number) => rows.find((r) => r.backend === backend && r.size === size);
  const s10 = at('sqlite', 10_000);
  const s100 = at('sqlite', 100_000);
  const pcCommands = mongoCommands(rows);
  const mongodbPlan = mongodbPlanCommands(rows);
  const targets = [
    target(
      'prompt-context-p95-10k',
      'promptContext p95 at 10k facts (SQLite, hashing)',
      '<=',
      5,
      'ms',
      s10?.query.promptContext.p95 ?? null,
    ),
    target(
      'prompt-context-audience-p95-10k',
      'promptContext p95 at 10k facts, asked in one channel (audience filter; SQLite, hashing)',
      '<=',
      5,
      'ms',
      s10?.query.promptContextWithAudience.p95 ?? null,
    ),
    target(
      'prompt-context-p95-100k',
      'promptContext p95 at 100k facts (SQLite, hashing)',
      '<=',
      30,
      'ms',
      s100?.query.promptContext.p95 ?? null,
      s100 ? undefined : 'not measured in --quick mode',
    ),
    target(
      'rss-100k',
      'peak RSS of a process serving 100k facts',
      '<',
      200,
      'MiB',
      s100?.query.peakRssMiB ?? null,
      s100 ? undefined : 'not measured in --quick mode',
    ),
  ];
  targets.push(
    target(
      'prompt-context-store-waves-10k',
      'store-call waves per promptContext at 10k facts (SQLite, max; a round trip each on a remote store)',
      '<=',
      6,
      'waves',
      s10?.query.storeWaves?.promptContext.maxWaves ?? null,
    ),
  );
  const m10 = at('mongo', 10_000);
  if (backends.includes('mongo')) {
    const skipped = quick ? 'not measured in --quick mode' : 'not measured';
    targets.push(
      target(
        'prompt-context-p95-10k-mongo',
        `promptContext p95 at 10k facts (mongo, ${mongoKind === 'ferretdb' ? 'FerretDB/PostgreSQL' : 'MongoDB'})`,
        '<=',
        50,
        'ms',
        m10?.query.promptContext.p95 ?? null,
        m10 ? undefined : skipped,
      ),
      target(
        'prompt-context-round-trips-mongo',
        'round trips per promptContext (mongo, max; the query plan the store picks for this server)',
        '<=',
        6,
        'round trips',
        pcCommands?.promptContext.maxRoundTrips ?? null,
      ),
      target(
        'prompt-context-round-trips-mongodb-plan',
        'round trips per promptContext (mongo, max; the MongoDB query plan: one $in / $or query per read)',
        '<=',
        6,
        'round trips',
        mongodbPlan?.promptContext.maxRoundTrips ?? null,
      ),
      target(
        'extraction-commit-round-trips-mongo',
        'round trips per extraction commit (mongo, max)',
        '<=',
        4,
        'round trips',
        ops?.extractionCommit.maxRoundTrips ?? null,
      ),
      target(
        'observe-round-trips-mongo',
        'round trips per observe (mongo, max)',
        '<=',
        1,
        'round trips',
        ops?.observe.maxRoundTrips ?? null,
      ),
    );
  }
  return targets;
}
