import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { arch, cpus, loadavg, platform, release, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { runStorageBench, STORAGE_DIMENSIONS, type StorageBenchResult } from './suites/storage.js';

/** `node bench/dist/run-storage.js [--sizes 10000,100000] [--queries 200]` */
function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const sizes = (arg('sizes') ?? '10000,100000').split(',').map(Number);
const queries = Number(arg('queries') ?? 200);
const startedAt = new Date().toISOString();
// The machine may be shared: record the load before and after so numbers can be judged.
const loadBefore = loadavg().map((x) => Math.round(x * 100) / 100);
const results = await runStorageBench({ sizes, queries });

const require = createRequire(import.meta.url);
const storePkg = require('@permafrost/store-sqlite/package.json') as { dependencies: Record<string, string> };
const cpu = cpus();
const report = {
  suite: 'storage',
  startedAt,
  machine: {
    platform: platform(),
    release: release(),
    arch: arch(),
    cpuModel: cpu[0]?.model ?? 'unknown',
    cpuCount: cpu.length,
    totalMemoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    loadAverageBefore: loadBefore,
    loadAverageAfter: loadavg().map((x) => Math.round(x * 100) / 100),
  },
  node: process.version,
  drivers: {
    'better-sqlite3': storePkg.dependencies['better-sqlite3'],
    'sqlite-vec': storePkg.dependencies['sqlite-vec'],
  },
  parameters: {
    sizes,
    guilds: 1,
    members: 200,
    dimensions: STORAGE_DIMENSIONS,
    embedder: `hashing-v1-${STORAGE_DIMENSIONS}`,
    insertBatch: 1000,
    queries,
    warmupQueries: 10,
    limit: 32,
    scopedQuery: '2 members + server facts',
    enqueueCalls: 10_000,
    enqueueManyBatch: 100,
    latencyUnit: 'ms',
  },
  results,
};

const out = fileURLToPath(new URL('../results/storage.json', import.meta.url));
mkdirSync(fileURLToPath(new URL('../results/', import.meta.url)), { recursive: true });
writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);

const pq = (s: { p50: number; p95: number }) => `${s.p50.toFixed(2)} / ${s.p95.toFixed(2)}`;
const row = (r: StorageBenchResult) =>
  `| ${r.size.toLocaleString('en-US')} | ${r.insert.factsPerSecond.toLocaleString('en-US')} | ${pq(r.knnGuild)} | ${pq(
    r.knnScoped,
  )} | ${pq(r.keywordGuild)} | ${pq(r.keywordScoped)} | ${r.enqueue.messagesPerSecond.toLocaleString('en-US')} (p99 ${r.enqueue.p99.toFixed(
    3,
  )}) | ${r.enqueueBatched.messagesPerSecond.toLocaleString('en-US')} | ${(r.fileBytes / 2 ** 20).toFixed(1)} |`;
console.log(
  [
    `SQLite storage bench — ${report.machine.cpuModel} ×${report.machine.cpuCount} (load ${loadBefore[0]} → ${report.machine.loadAverageAfter[0]}), Node ${report.node}, ${STORAGE_DIMENSIONS}-dim hashing vectors, top-32, latencies ms p50 / p95`,
    '',
    '| facts (1 guild) | insert facts/s (fact+vector+FTS, 1k/tx) | KNN guild | KNN 2 users+server | keyword guild | keyword 2 users+server | enqueue msg/s (1/call) | enqueueMany msg/s (100/call) | file MiB |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...results.map(row),
    '',
    `written to ${out}`,
  ].join('\n'),
);
