/**
 * Suite 5 — context(): p50/p95 in `instant` and `normal` modes at 10k facts (SQLite, hashing),
 * measured in a fresh child process; and the long-term cache hit rate on a replayed LoCoMo
 * conversation where every question is asked twice.
 */
import '@permafrost/store-sqlite';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMemory } from '@permafrost/core';
import { FixedClock } from '@permafrost/core/testing';
import { runJsonChild } from '../harness/child.js';
import { locomoPath } from '../harness/env.js';
import { round, type Suite, type SuiteOutput, target } from '../harness/suite.js';
import { barChart } from '../harness/svg.js';
import { loadLocomo } from '../locomo/dataset.js';
import type { LatencySummary } from '../stats.js';

const WORKER = fileURLToPath(new URL('./recall-worker.js', import.meta.url));

interface ContextResult {
  instant: { samples: number[]; summary: LatencySummary; p95: number; perRepP95: number[] };
  normal: { samples: number[]; summary: LatencySummary; p95: number; perRepP95: number[] };
  normalCalls: number;
  normalCached: number;
  normalWithLongTerm: number;
  peakRssMiB: number;
}

const snowflake = (s: string) => {
  let h = 0n;
  for (const c of s) h = (h * 131n + BigInt(c.charCodeAt(0))) % 10n ** 17n;
  return String(10n ** 17n + h);
};

/** Replays one LoCoMo conversation and asks each question twice; returns cache statistics. */
async function cacheReplay(dataPath: string, workDir: string, quick: boolean) {
  const [conv] = await loadLocomo(dataPath);
  if (!conv) throw new Error('LoCoMo has no conversation');
  const guildId = snowflake(conv.sampleId);
  const channelId = snowflake(`${conv.sampleId}/channel`);
  const ids = new Map(conv.speakers.map((s) => [s, snowflake(s)]));
  const clock = new FixedClock(conv.turns[0]?.at ?? new Date());
  const memory = createMemory(
    {
      storage: `sqlite://${join(workDir, 'context-locomo.db')}`,
      access: { requireAudience: false },
      llm: null,
      embeddings: 'hashing',
      workers: { enabled: false },
    },
    { clock },
  );
  try {
    for (const t of conv.turns) {
      clock.set(t.at);
      await memory.observe({
        messageId: snowflake(`${conv.sampleId}/${t.diaId}`),
        guildId,
        channelId,
        authorId: ids.get(t.speaker) as string,
        authorUsername: t.speaker.toLowerCase(),
        authorDisplayName: t.speaker,
        content: t.text,
        createdAt: new Date(t.at.getTime() + t.index * 30_000),
      });
    }
    for (const o of conv.observations)
      await memory.facts.remember({
        guildId,
        subjectId: ids.get(o.speaker) as string,
        text: o.text,
        confidence: 0.9,
      });
    const questions = conv.questions.slice(0, quick ? 60 : conv.questions.length);
    const asker = ids.get(conv.speakers[0]) as string;
    const stats: Record<string, { calls: number; cached: number; longTerm: number }> = {};
    for (const mode of ['normal', 'deep'] as const) {
      const s = { calls: 0, cached: 0, longTerm: 0 };
      // Two passes: every question, then every question again (a member repeating themselves).
      for (let pass = 0; pass < 2; pass++) {
        for (const q of questions) {
          const mentioned = conv.speakers
            .filter((sp) => q.question.includes(sp))
            .map((sp) => ids.get(sp) as string);
          const c = await memory.context({
            guildId,
            channelId,
            askerId: asker,
            text: `${mode}: ${q.question}`,
            mode,
            mentionedIds: mentioned,
          });
          s.calls++;
          if (c.cached) s.cached++;
          if (c.longTerm) s.longTerm++;
        }
      }
      stats[mode] = s;
    }
    const metrics = await memory.ops.metrics();
    return {
      conversation: conv.sampleId,
      turns: conv.turns.length,
      facts: conv.observations.length,
      questions: questions.length,
      stats,
      counters: metrics.counters,
    };
  } finally {
    await memory.close({ drain: false });
  }
}

export const contextSuite: Suite = async (ctx): Promise<SuiteOutput> => {
  const size = 10_000;
  const queries = ctx.quick ? 100 : 300;
  const reps = ctx.quick ? 2 : 3;
  const location = join(ctx.workDir, 'context-10k.db');
  await runJsonChild(WORKER, ['seed', `--location=${location}`, `--size=${size}`], 10 * 60_000);
  const r = await runJsonChild<ContextResult>(
    WORKER,
    ['context', `--location=${location}`, `--queries=${queries}`, `--reps=${reps}`],
    20 * 60_000,
  );
  const data = locomoPath();
  const replay = data ? await cacheReplay(data, ctx.workDir, ctx.quick) : null;
  const hit = (m: 'normal' | 'deep') => {
    const s = replay?.stats[m];
    return s && s.longTerm > 0 ? s.cached / s.longTerm : null;
  };
  const notes = [
    `context() at ${size.toLocaleString('en-US')} facts: a channel with 200 observed messages (hot tier); instant mode reads only the hot tier; every normal-mode call mentions a member (the long-term trigger) with a unique text, so each one is a cache miss that runs promptContext under the ${150} ms deadline. p95 is the median over ${reps} repetitions of ${queries} calls, the two modes interleaved per question.`,
  ];
  if (replay)
    notes.push(
      `Cache replay: LoCoMo ${replay.conversation} (${replay.turns} turns observed, ${replay.facts} observations remembered as facts); each of ${replay.questions} questions asked twice in normal mode, then twice in deep mode. Hit rate = cached long-term answers / calls that used the long-term tier; normal mode consults it only when a trigger fires (a mentioned member or a memory phrase), so ${replay.stats['normal']?.longTerm ?? 0} of ${replay.stats['normal']?.calls ?? 0} normal calls did.`,
    );
  else notes.push('Cache replay not run: locomo10.json not found (set LOCOMO_PATH).');
  return {
    title: 'context() latency (instant / normal) and cache hit rate',
    ...(replay ? {} : { status: 'partial' as const }),
    parameters: {
      facts: size,
      members: 200,
      embedder: 'hashing-v1-256',
      store: 'sqlite',
      queriesPerRepetition: queries,
      repetitions: reps,
      hotMessages: 8,
      longTermTimeoutMs: 150,
    },
    samples: {
      instantMs: { unit: 'ms', values: r.instant.samples },
      normalMs: { unit: 'ms', values: r.normal.samples },
    },
    latencies: { instant: r.instant.summary, normal: r.normal.summary },
    ratios: {
      normalOverInstantP95: round(r.normal.p95 / Math.max(r.instant.p95, 1e-6)),
      ...(hit('normal') !== null ? { cacheHitRateNormal: round(hit('normal') as number) } : {}),
      ...(hit('deep') !== null ? { cacheHitRateDeep: round(hit('deep') as number) } : {}),
    },
    results: {
      instantP95Ms: r.instant.p95,
      normalP95Ms: r.normal.p95,
      instantPerRepP95Ms: r.instant.perRepP95,
      normalPerRepP95Ms: r.normal.perRepP95,
      normalCalls: r.normalCalls,
      normalWithLongTerm: r.normalWithLongTerm,
      normalCached: r.normalCached,
      peakRssMiB: r.peakRssMiB,
      cacheReplay: replay,
    },
    targets: [
      target('context-instant-p95', 'context() instant p95 at 10k facts', '<', 1, 'ms', r.instant.p95),
      target(
        'context-normal-p95',
        'context() normal p95 at 10k facts (long-term triggered, cache miss)',
        '<',
        10,
        'ms',
        r.normal.p95,
      ),
    ],
    charts: [
      {
        file: 'context.svg',
        title: 'context() p50/p95 by mode',
        svg: barChart({
          title: 'context() at 10k facts: latency by mode (ms)',
          yLabel: 'ms',
          categories: ['p50', 'p95', 'p99'],
          series: [
            { name: 'instant', values: [r.instant.summary.p50, r.instant.p95, r.instant.summary.p99] },
            { name: 'normal (miss)', values: [r.normal.summary.p50, r.normal.p95, r.normal.summary.p99] },
          ],
        }),
      },
    ],
    notes,
  };
};
