/**
 * Suite 7 — Permafrost vs mem0 OSS (mem0ai 3.3.1, `mem0ai/oss`), same memories, same embedder
 * (our 256-dim hashing embedder, handed to mem0 as a langchain-style object), offline: telemetry
 * off, private temp dirs, a loopback stub LLM, `add(..., {infer: false})` vs `facts.remember`.
 * Add latency and search p50/p95 at 500 / 2,000 / 5,000 / 20,000 memories over 50 users (the
 * two systems' searches interleaved per query, so ratios come from one process and one moment),
 * then LoCoMo observation-level recall@k on identical inputs, scored by the same scorer.
 */
import '@permafrost/store-sqlite';
import { join } from 'node:path';
import { startScriptedOpenAiServer } from '@permafrost/core/testing';
import { makeFactTexts, makeMembers, TOPICS } from '../community.js';
import { locomoPath } from '../harness/env.js';
import { median, round, type Suite, type SuiteOutput, target, timed } from '../harness/suite.js';
import { lineChart } from '../harness/svg.js';
import { prng, summarize } from '../stats.js';
import { type Mem0LocomoRecall, mem0LocomoRecall } from './mem0-locomo.js';
import { DIMS, loadMem0, newMem0, newPermafrost } from './mem0-systems.js';

const USERS = 50;
const GUILD = '1098765432109876543';

export const mem0Suite: Suite = async (ctx): Promise<SuiteOutput> => {
  const Mem0 = await loadMem0(ctx.workDir);
  const server = await startScriptedOpenAiServer({ handler: () => ({ json: { memory: [] } }) });
  const notes: string[] = [
    'Recall runs with access.requireAudience: false: the benchmark searches each whole conversation on purpose (no audience, no channel filter).',
  ];
  const sizes = ctx.quick ? [500, 2_000] : [500, 2_000, 5_000, 20_000];
  const budgetMs = (ctx.quick ? 60 : 9 * 60) * 1000;
  const t0 = performance.now();
  const members = makeMembers(USERS);
  const texts = makeFactTexts(Math.max(...sizes), members, 31).map((f, i) => ({
    userId: f.subjectId ?? (members[i % USERS]?.id as string),
    text:
      f.subjectId === null
        ? f.text.replace(/^The server/, `${members[i % USERS]?.name} says the server`)
        : f.text,
  }));
  const rand = prng(77);
  const mem0 = newMem0(Mem0, join(ctx.workDir, 'mem0'), 'scale', server.url);
  const ours = newPermafrost(ctx.workDir, 'scale');
  const rows: {
    memories: number;
    mem0AddMs: number;
    oursAddMs: number;
    mem0: ReturnType<typeof summarize>;
    ours: ReturnType<typeof summarize>;
    p50Ratio: number;
    queries: number;
  }[] = [];
  const samples: Record<string, { unit: string; values: number[] }> = {};
  let loaded = 0;
  let timeBoxed: string | null = null;
  try {
    for (const size of sizes) {
      const addM: number[] = [];
      const addO: number[] = [];
      const elapsed = performance.now() - t0;
      const perAdd = rows.length > 0 ? (rows[rows.length - 1]?.mem0AddMs ?? 10) : 10;
      if (elapsed + (size - loaded) * perAdd * 1.3 > budgetMs) {
        timeBoxed = `stopped before ${size.toLocaleString('en-US')} memories: mem0 adds at ~${round(perAdd, 1)} ms each would exceed the ${budgetMs / 60_000}-minute time box`;
        break;
      }
      for (; loaded < size; loaded++) {
        const m = texts[loaded] as { userId: string; text: string };
        addM.push(
          await timed(() =>
            mem0.add([{ role: 'user', content: m.text }], { userId: m.userId, infer: false }),
          ),
        );
        addO.push(
          await timed(() => ours.facts.remember({ guildId: GUILD, subjectId: m.userId, text: m.text })),
        );
      }
      const queries = ctx.quick ? 30 : size >= 20_000 ? 40 : 100;
      const qs = Array.from({ length: queries + 5 }, () => {
        const m = members[Math.floor(rand() * USERS)] as (typeof members)[number];
        return { userId: m.id, text: `does ${m.name} like ${TOPICS[Math.floor(rand() * TOPICS.length)]}?` };
      });
      const sm: number[] = [];
      const so: number[] = [];
      for (const [i, q] of qs.entries()) {
        const a = await timed(() => mem0.search(q.text, { filters: { user_id: q.userId }, topK: 10 }));
        const b = await timed(() =>
          ours.recall({ guildId: GUILD, text: q.text, subjectIds: [q.userId], topK: 10 }),
        );
        if (i >= 5) {
          sm.push(a);
          so.push(b);
        }
      }
      const m = summarize(sm);
      const o = summarize(so);
      rows.push({
        memories: size,
        mem0AddMs: round(median(addM), 3),
        oursAddMs: round(median(addO), 3),
        mem0: m,
        ours: o,
        p50Ratio: round(m.p50 / Math.max(o.p50, 1e-6), 2),
        queries,
      });
      samples[`mem0.search.${size}`] = { unit: 'ms', values: sm };
      samples[`permafrost.recall.${size}`] = { unit: 'ms', values: so };
      process.stderr.write(
        `[mem0] ${size}: mem0 p50 ${m.p50} ms, ours p50 ${o.p50} ms (×${round(m.p50 / o.p50, 1)})\n`,
      );
    }
  } finally {
    await ours.close({ drain: false });
  }
  if (timeBoxed) notes.push(`Time box: ${timeBoxed}.`);

  // LoCoMo observation-level recall on identical inputs.
  const data = locomoPath();
  const ks = [5, 10, 25, 50];
  let recall: Mem0LocomoRecall | null = null;
  if (data) {
    recall = await mem0LocomoRecall({
      Mem0,
      data,
      workDir: ctx.workDir,
      llmUrl: server.url,
      conversations: ctx.quick ? 1 : 10,
      ks,
    });
    const rejected = recall.permafrostRejectedObservations;
    if (rejected > 0)
      notes.push(
        `facts.remember refused ${rejected} observation text(s) (hygiene gate, e.g. questions); mem0 stored them, so Permafrost was scored without them.`,
      );
  } else notes.push('LoCoMo recall not run: locomo10.json not found (set LOCOMO_PATH).');
  await server.close();

  const at = (n: number) => rows.find((r) => r.memories === n);
  const r5k = at(5_000);
  const overall = (s: Record<string, unknown> | undefined, k: number): number | null =>
    (s?.['overall'] as { atK: Record<string, { frac: number }> } | undefined)?.atK[String(k)]?.frac ?? null;
  const recallTargets = ks.map((k) => {
    const m = overall(recall?.mem0, k);
    const o = overall(recall?.permafrost, k);
    return target(
      `recall-vs-mem0-r${k}`,
      `LoCoMo observation-level R@${k}: Permafrost minus mem0 (points)`,
      '>=',
      0,
      'points',
      m !== null && o !== null ? round(o - m, 1) : null,
      m !== null && o !== null ? `Permafrost ${o} vs mem0 ${m}` : 'not measured',
    );
  });
  notes.push(
    `mem0ai 3.3.1 OSS: vector store "memory" (SQLite via better-sqlite3 12.11.1) with compromise + natural installed (its intended BM25 and entity scoring), history in SQLite, MEM0_TELEMETRY=false, MEM0_DIR and both database paths under a private temp dir, dimension set (no probe), LLM = loopback stub (never called with infer:false). Permafrost: SQLite file, llm null, workers off. Search: mem0.search(q, {filters:{user_id}, topK:10}) vs memory.recall({subjectIds:[user], topK:10}); add: mem0.add([{role:'user',content}], {userId, infer:false}) vs facts.remember.`,
    "LoCoMo recall: every observation of a conversation is a memory of one mem0 user (the conversation) and a fact about its speaker in one Permafrost guild; mem0 searches with topK 50 and threshold 0 (its default 0.1 would cut results), Permafrost recalls guild-wide with topK 50; both scored by bench/src/locomo/scoring.ts via the memories' dia_ids.",
  );
  return {
    title: 'Permafrost vs mem0 OSS (same memories, same embedder, stub LLM)',
    ...(timeBoxed || !recall ? { status: 'partial' as const } : {}),
    parameters: {
      mem0: 'mem0ai@3.3.1 (mem0ai/oss)',
      embedder: `hashing-v1-${DIMS} (both systems)`,
      users: USERS,
      sizes,
      timeBoxMinutes: budgetMs / 60_000,
      topK: 10,
      warmupQueries: 5,
      locomoConversations: ctx.quick ? 1 : 10,
    },
    samples,
    latencies: Object.fromEntries(
      rows.flatMap((r) => [
        [`mem0.search.${r.memories}`, r.mem0],
        [`permafrost.recall.${r.memories}`, r.ours],
      ]),
    ),
    ratios: Object.fromEntries(rows.map((r) => [`searchP50Mem0OverPermafrost.${r.memories}`, r.p50Ratio])),
    results: {
      scale: rows.map((r) => ({
        memories: r.memories,
        mem0AddMedianMs: r.mem0AddMs,
        permafrostAddMedianMs: r.oursAddMs,
        mem0SearchP50Ms: r.mem0.p50,
        mem0SearchP95Ms: r.mem0.p95,
        permafrostSearchP50Ms: r.ours.p50,
        permafrostSearchP95Ms: r.ours.p95,
        p50Ratio: r.p50Ratio,
        p95Ratio: round(r.mem0.p95 / Math.max(r.ours.p95, 1e-6), 2),
        queries: r.queries,
      })),
      timeBoxed,
      locomoObservationRecall: recall,
    },
    targets: [
      target(
        'mem0-search-p50-ratio-5k',
        'mem0 search p50 ÷ Permafrost recall p50 at 5,000 memories',
        '>=',
        20,
        '×',
        r5k?.p50Ratio ?? null,
        r5k ? undefined : 'not measured in --quick mode',
      ),
      ...recallTargets,
    ],
    charts: [
      {
        file: 'mem0.svg',
        title: 'search latency vs memories',
        svg: lineChart({
          title: 'search p50 / p95 vs memories: mem0 OSS vs Permafrost',
          xLabel: 'memories (50 users, log scale)',
          yLabel: 'ms (log scale)',
          logX: true,
          logY: true,
          series: [
            { name: 'mem0 p95', points: rows.map((r) => [r.memories, r.mem0.p95] as const) },
            { name: 'mem0 p50', points: rows.map((r) => [r.memories, r.mem0.p50] as const), dashed: true },
            { name: 'Permafrost p95', points: rows.map((r) => [r.memories, r.ours.p95] as const) },
            {
              name: 'Permafrost p50',
              points: rows.map((r) => [r.memories, r.ours.p50] as const),
              dashed: true,
            },
          ],
        }),
      },
    ],
    notes,
  };
};
