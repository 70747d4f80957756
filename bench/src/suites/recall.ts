/**
 * Suite 2 — recall / promptContext at 1k / 10k / 100k facts in one guild (200 members, hashing
 * embeddings), SQLite file (and Mongo when MONGO_URL is set and a Mongo store is installed).
 * Each size is seeded in one child process and queried in a fresh one, so peak RSS is that of a
 * process serving that many facts (not of the seeding).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runJsonChild } from '../harness/child.js';
import { type Backend, mongoAvailable, mongoDatabaseUrl, mongoServerKind } from '../harness/seed.js';
import { round, type Suite, type SuiteOutput } from '../harness/suite.js';
import { lineChart } from '../harness/svg.js';
import type { LatencySummary } from '../stats.js';
import {
  type CommandStats,
  mongoCommands,
  type OpsStats,
  type QueryResult,
  type Row,
  recallTargets,
  type WaveStats,
} from './recall-report.js';

const WORKER = fileURLToPath(new URL('./recall-worker.js', import.meta.url));
const OPS_WORKER = fileURLToPath(new URL('./mongo-ops-worker.js', import.meta.url));

export const recallSuite: Suite = async (ctx): Promise<SuiteOutput> => {
  const sizes = ctx.quick ? [1_000, 10_000] : [1_000, 10_000, 100_000];
  const queries = ctx.quick ? 100 : 300;
  const reps = ctx.quick ? 2 : 3;
  const mongoSkip = await mongoAvailable();
  const backends: Backend[] = mongoSkip === null ? ['sqlite', 'mongo'] : ['sqlite'];
  const rows: Row[] = [];
  const notes: string[] = [
    'Reads run with access.requireAudience: false (guild-wide), as a tool reading the whole history would; the "asked in one channel" rows pass an audience, so the cost of filtering shows: seeded facts were learned in one of four channels, and core\'s default policy shows the asking channel\'s quarter of them (plus nothing channel-free).',
  ];
  const mongoKind = mongoSkip === null ? await mongoServerKind(process.env['MONGO_URL'] as string) : null;
  // FerretDB v1 on PostgreSQL (the server the scripts start) pushes only top-level equality filters
  // down, and decodes every row it gets in Go: even with the scripts' GIN indexes a promptContext
  // at 10k facts takes seconds. Against it the Mongo rows run few questions (the sizes are the
  // same as SQLite's); a real MongoDB gets SQLite's query counts.
  const plan = (backend: Backend, size: number) =>
    backend === 'mongo' && mongoKind === 'ferretdb'
      ? size >= 100_000
        ? { queries: 3, reps: 1, warm: 1, profile: 0, commands: 0, waves: 0, mongodbPlan: 0 }
        : { queries: 10, reps: 3, warm: 2, profile: 0, commands: 10, waves: 4, mongodbPlan: 3 }
      : { queries, reps, warm: 30, profile: 100, commands: 10, waves: 10, mongodbPlan: 0 };
  const sizesOf = (backend: Backend) =>
    backend === 'mongo' && mongoKind === 'ferretdb' && ctx.quick ? sizes.filter((n) => n <= 1_000) : sizes;
  for (const backend of backends) {
    for (const size of sizesOf(backend)) {
      const p = plan(backend, size);
      const location =
        backend === 'sqlite'
          ? join(ctx.workDir, `recall-${size}.db`)
          : mongoDatabaseUrl(
              process.env['MONGO_URL'] as string,
              `permafrost_bench_recall_${size}_${process.pid}`,
            );
      const common = [`--backend=${backend}`, `--location=${location}`];
      const seeded = await runJsonChild<{ seconds: number; factsPerSecond: number }>(
        WORKER,
        ['seed', ...common, `--size=${size}`],
        30 * 60_000,
      );
      const query = await runJsonChild<QueryResult>(
        WORKER,
        [
          'query',
          ...common,
          `--queries=${p.queries}`,
          `--reps=${p.reps}`,
          `--warm=${p.warm}`,
          `--profile=${p.profile}`,
          `--commands=${p.commands}`,
          `--waves=${p.waves}`,
          // Questions counted again with the MongoDB query plan (FerretDB scans its $in: slow).
          `--mongodb-plan=${p.mongodbPlan}`,
        ],
        30 * 60_000,
      );
      // A block with no facts means the path failed quietly (promptContext never throws): not a timing.
      if (!(query.meanFactsPerPromptContext > 0))
        throw new Error(
          `recall ${backend} ${size}: promptContext returned no facts (warnings ${JSON.stringify(query.warnings)}); the timings would be of a failure path`,
        );
      rows.push({
        backend,
        size,
        seedSeconds: seeded.seconds,
        seedFactsPerSecond: seeded.factsPerSecond,
        query,
      });
      process.stderr.write(
        `[recall] ${backend} ${size}: promptContext p50 ${query.promptContext.p50} p95 ${query.promptContext.p95} ms, recall p95 ${query.recall.p95} ms, peak RSS ${query.peakRssMiB} MiB\n`,
      );
    }
  }
  let ops: OpsStats | null = null;
  if (backends.includes('mongo'))
    ops = await runJsonChild(
      OPS_WORKER,
      [
        `--location=${mongoDatabaseUrl(process.env['MONGO_URL'] as string, `permafrost_bench_ops_${process.pid}`)}`,
        // Enough messages for several batches per member, so that commits which reinforce facts
        // already stored are counted too, not only first commits.
        '--messages=90',
      ],
      10 * 60_000,
    );
  if (mongoSkip !== null) notes.push(`Mongo rows not run: ${mongoSkip}.`);
  else if (mongoKind === 'ferretdb')
    notes.push(
      `Mongo rows ran against FerretDB v1.24.2 on PostgreSQL 15 (a throwaway cluster, fsync off; scripts/ferretdb.sh applies scripts/ferretdb-pg-indexes.sql unless FERRETDB_PG_TUNING=off, tuning: ${process.env['FERRETDB_PG_TUNING'] ?? 'on'}), which pushes only top-level equality filters down (as jsonb containment, served by the script's GIN indexes) and decodes every row it gets in Go; $in, $or and ranges are answered in FerretDB. They measure that server with ${ctx.quick ? 'a 1k guild' : '10 questions at 1k and 10k and 3 at 100k'}: three repetitions of the same questions at 1k and 10k, as the SQLite rows (p95 is the median of the repetitions' p95; the first repetition reads the facts of members not asked before, the next ones find them kept by the store, see promptContextPerRepP95Ms), one at 100k; on MongoDB the same queries are served by the indexes in docs/stores.md. Round trips do not depend on the server's speed (see the commands note).`,
    );
  const at = (backend: Backend, size: number) => rows.find((r) => r.backend === backend && r.size === size);
  const s10 = at('sqlite', 10_000);
  const s100 = at('sqlite', 100_000);
  const pcCommands = mongoCommands(rows);
  const targets = recallTargets(rows, backends, mongoKind, ops, ctx.quick);
  const latencies: Record<string, LatencySummary> = {};
  const samples: Record<string, { unit: string; values: number[] }> = {};
  for (const r of rows) {
    latencies[`promptContext.${r.backend}.${r.size}`] = r.query.promptContext.summary;
    latencies[`recall.${r.backend}.${r.size}`] = r.query.recall.summary;
    samples[`promptContext.${r.backend}.${r.size}`] = { unit: 'ms', values: r.query.promptContext.samples };
    samples[`recall.${r.backend}.${r.size}`] = { unit: 'ms', values: r.query.recall.samples };
  }
  const ratios: Record<string, number> = {};
  const s1 = at('sqlite', 1_000);
  if (s1 && s10)
    ratios['promptContextP50_10k_over_1k'] = round(s10.query.promptContext.p50 / s1.query.promptContext.p50);
  if (s10 && s100)
    ratios['promptContextP50_100k_over_10k'] = round(
      s100.query.promptContext.p50 / s10.query.promptContext.p50,
    );
  for (const r of rows)
    ratios[`promptContextOverRecallP50.${r.backend}.${r.size}`] = round(
      r.query.promptContext.p50 / r.query.recall.p50,
    );
  if (ops && pcCommands) {
    const counts = (label: string, c: CommandStats) =>
      `${label} ${round(c.meanCommands, 1)} / ${c.maxCommands} (${round(c.meanRoundTrips, 1)} / ${c.maxRoundTrips})`;
    const mongodbPlan = pcCommands.mongodbPlan;
    notes.push(
      `Mongo commands per operation, mean / max (round trips in brackets, mean / max), with the ${pcCommands.queryPlan} query plan the store picks for this server: ${counts('observe', ops.observe)}, ${counts(`extraction commit (${ops.extractionCommit.operations} commits; per commit ${round(ops.extractionCommit.factsPerCommit, 2)} facts added, ${round(ops.extractionCommit.reinforcedPerCommit, 2)} reinforced, ${round(ops.extractionCommit.supersededPerCommit, 2)} superseded)`, ops.extractionCommit)}, ${counts('recall', pcCommands.recall)}, ${counts('promptContext', pcCommands.promptContext)}.${mongodbPlan ? ` With the MongoDB plan (queryPlan: 'mongodb', one $in / $or query per read: what the same store sends to MongoDB or Atlas; ${mongodbPlan.promptContext.operations} questions, FerretDB answers them slowly): ${counts('recall', mongodbPlan.recall)}, ${counts('promptContext', mongodbPlan.promptContext)}.` : ''} Commands are counted by the driver's command monitoring; round trips by a loopback proxy that holds the server's replies and releases them together once every request sent so far is answered and the client is waiting (bench/src/harness/round-trip-clock.ts): equal latency per round trip with the server's time taken out, so they are what a client far from its server pays, whatever the server's speed. On the ferretdb plan reads of several documents by id are concurrent point reads (several commands, one round trip).`,
    );
  }
  const waves = rows.filter((r) => r.query.storeWaves);
  if (waves.length > 0)
    notes.push(
      `Store-call waves (the critical path in store calls: a call started after another answered is one wave later; what a store answering each call in one round trip pays, e.g. MongoDB reading several ids with one $in): ${waves
        .map((r) => {
          const w = r.query.storeWaves as { promptContext: WaveStats; recall: WaveStats };
          return `${r.backend} ${r.size.toLocaleString('en-US')} facts: promptContext ${round(w.promptContext.meanWaves, 1)} mean / ${w.promptContext.maxWaves} max (${round(w.promptContext.meanCalls, 1)} calls), recall ${round(w.recall.meanWaves, 1)} / ${w.recall.maxWaves} (${round(w.recall.meanCalls, 1)} calls)`;
        })
        .join('; ')}.`,
    );
  const profiled = s10 ?? rows[0];
  if (profiled) {
    const top = (
      profiled.query.storeProfile.calls as { method: string; callsPerRequest: number; msPerRequest: number }[]
    )
      .slice(0, 6)
      .map((c) => `${c.method} ×${c.callsPerRequest} (${c.msPerRequest} ms)`)
      .join(', ');
    notes.push(
      `Where promptContext's time goes at ${profiled.size.toLocaleString('en-US')} facts (store calls per request, wall time summed; channels run concurrently and queue on the one SQLite connection, so per-call times include that wait): ${top}. One promptContext runs two recalls (the people in the conversation, then server facts) that share one opt-out read, one query embedding, one entity-channel result (all query n-grams resolved in one aliases.findMany) and their twin, link and fact reads; each runs vector KNN (sqlite-vec, exact, over the shards of its members or the server shard only), BM25 keyword (FTS5), subject links and baseline by strength.`,
    );
  }
  if (s100?.query.rssSplitMiB)
    notes.push(
      `RSS at 100k facts after the queries: ${s100.query.rssAfterMiB} MiB, of which ${s100.query.rssSplitMiB.anon} MiB anonymous (JS heap, SQLite page cache of 32 MiB, native) and ${s100.query.rssSplitMiB.file} MiB file-backed (code, plus at most 32 MiB of the database file mapped by SQLite; the rest is read with copies from the kernel's page cache, which does not count in RSS). Peak RSS is read when the timed passes end, before the profiling passes open more stores; the Mongo driver (its code and a buffer pool of about 17 MiB) is loaded only by Mongo rows.`,
    );
  notes.push(
    'Facts are seeded through the store (fact + vector + subject link per fact, 1,000 per transaction) with 256-dim hashing vectors; questions mention a member by name and by mention and a topic ("does Maya still do chess openings?"). promptContext and recall are interleaved per question; p50/p95 are medians over repetitions.',
  );
  const line = (metric: 'promptContext' | 'recall', stat: 'p50' | 'p95', backend: Backend) => ({
    name: `${metric} ${stat} (${backend})`,
    points: rows.filter((r) => r.backend === backend).map((r) => [r.size, r.query[metric][stat]] as const),
    ...(stat === 'p50' ? { dashed: true } : {}),
  });
  return {
    title: 'recall() and promptContext() latency vs facts per guild',
    parameters: {
      sizes,
      backends,
      members: 200,
      embedder: 'hashing-v1-256',
      queriesPerRepetition: queries,
      repetitions: reps,
      warmupQueries: 30,
      promptContextInput: 'asker + 1 mentioned member + question text',
      recallInput: 'subjectIds [asker, mentioned] + server facts, topK default (8)',
    },
    samples,
    latencies,
    ratios,
    results: {
      rows: rows.map((r) => ({
        backend: r.backend,
        facts: r.size,
        seedSeconds: r.seedSeconds,
        seedFactsPerSecond: r.seedFactsPerSecond,
        promptContextP50Ms: r.query.promptContext.p50,
        promptContextP95Ms: r.query.promptContext.p95,
        promptContextWithAudienceP50Ms: r.query.promptContextWithAudience.p50,
        promptContextWithAudienceP95Ms: r.query.promptContextWithAudience.p95,
        meanFactsPerAudienceBlock: round(r.query.promptContextWithAudience.meanFacts, 2),
        promptContextPerRepP95Ms: r.query.promptContext.perRepP95,
        recallP50Ms: r.query.recall.p50,
        recallP95Ms: r.query.recall.p95,
        meanFactsPerPromptContext: round(r.query.meanFactsPerPromptContext, 2),
        rssStartMiB: r.query.rssStartMiB,
        rssAfterMiB: r.query.rssAfterMiB,
        rssAnonMiB: r.query.rssSplitMiB?.anon ?? null,
        rssFileMiB: r.query.rssSplitMiB?.file ?? null,
        peakRssMiB: r.query.peakRssMiB,
        storeProfile: r.query.storeProfile,
        commands: r.query.commands,
        storeWaves: r.query.storeWaves,
      })),
      mongoOperations: ops,
    },
    targets,
    charts: [
      {
        file: 'recall.svg',
        title: 'latency vs facts',
        svg: lineChart({
          title: 'promptContext / recall latency vs facts per guild',
          xLabel: 'facts in the guild (log scale)',
          yLabel: 'ms',
          logX: true,
          series: backends.flatMap((b) => [
            line('promptContext', 'p95', b),
            line('promptContext', 'p50', b),
            line('recall', 'p95', b),
            line('recall', 'p50', b),
          ]),
          refLines: [
            { y: 5, label: 'target p95 ≤ 5 ms @10k' },
            { y: 30, label: 'target p95 ≤ 30 ms @100k' },
          ],
        }),
      },
    ],
    notes,
  };
};
