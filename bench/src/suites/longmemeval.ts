/**
 * Suite — LongMemEval-S dev retrieval (../shared/data/longmemeval-s-dev, PROVENANCE.md protocol):
 * turn and session level, recall_any / recall_all / NDCG at k = 1, 3, 5, 10, 30, 50, overall and
 * per question type, for Okapi BM25 over plain tokens and over stems (reference rows), the
 * default stack (observe → flush → conversation.search, hashing embeddings) and the default stack
 * with the local model. Quick mode scores the first 20 questions. Also writes longmemeval.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLocalEmbedder } from '@permafrost/embeddings-local';
import { BENCH_DIR, longMemEvalPath } from '../harness/env.js';
import { tryLocalEmbedder } from '../harness/local-model.js';
import { round, type Suite, type SuiteOutput, target } from '../harness/suite.js';
import { barChart } from '../harness/svg.js';
import { diskCachedEmbedder } from '../harness/vector-cache.js';
import { loadLongMemEval } from '../longmemeval/dataset.js';
import { renderLongMemEval } from '../longmemeval/report.js';
import { type RetrieverResult, runRetriever, scoredQuestions } from '../longmemeval/run.js';
import { LME_KS } from '../longmemeval/scoring.js';
import { searchLatency } from '../longmemeval/search-latency.js';

/** With a sentence-embedding model the semantic channel carries more (configuration docs). */
export const LOCAL_MODEL_CONFIG = { retrieval: { weights: { semantic: 0.45 } } } as const;

const at = (
  r: RetrieverResult | undefined,
  level: 'turn' | 'session',
  metric: 'recallAny' | 'recallAll',
  k: number,
) => r?.summary['overall']?.[level][String(k)]?.[metric] ?? null;

export const longMemEvalSuite: Suite = async (ctx): Promise<SuiteOutput> => {
  const dir = longMemEvalPath();
  if (!dir)
    return {
      title: 'LongMemEval-S dev retrieval',
      status: 'not-run',
      notRunReason: 'LongMemEval dev split not found (set LONGMEMEVAL_DEV_PATH)',
      parameters: {},
      targets: [],
    };
  const questions = scoredQuestions(await loadLongMemEval(dir), ctx.quick ? 20 : undefined);
  const plain = await runRetriever({ name: 'BM25, plain tokens', kind: 'bm25-plain' }, questions);
  const stemmed = await runRetriever({ name: 'BM25, stems, no stop words', kind: 'bm25-stemmed' }, questions);
  const stack = await runRetriever({ name: 'Permafrost default stack (hashing)', kind: 'memory' }, questions);
  const local = await tryLocalEmbedder();
  let withModel: RetrieverResult | null = null;
  let localReason: string | null = null;
  if ('embedder' in local) {
    await local.embedder.close();
    const folder = local.folder;
    withModel = await runRetriever(
      {
        name: 'Permafrost + local MiniLM',
        kind: 'memory',
        config: LOCAL_MODEL_CONFIG,
        makeEmbedder: () => diskCachedEmbedder(createLocalEmbedder({ modelPath: folder })),
      },
      questions,
    );
  } else localReason = local.reason;
  const loaded = await loadLongMemEval(dir);
  const all = scoredQuestions(loaded);
  // The questions with no gold turn are not scored: their texts warm the search up.
  const unscored = loaded.filter((q) => q.goldTurns.length === 0).map((q) => q.question);
  const latency = await searchLatency(all, ctx.quick ? 5_000 : 50_000, ctx.workDir, unscored);
  const rows = [plain, stemmed, stack, ...(withModel ? [withModel] : [])];
  const quickNote = ctx.quick ? `quick run: ${questions.length} questions only` : undefined;
  const targets = [
    target(
      'lme-search-p95',
      `conversation.search p95 at ${latency.messages.toLocaleString('en-US')} messages in one guild (SQLite, hashing)`,
      '<=',
      20,
      'ms',
      latency.search.p95,
      ctx.quick ? 'quick run: 5,000 messages' : undefined,
    ),
    ...LME_KS.flatMap((k) =>
      (['recallAny', 'recallAll'] as const).map((m) => {
        const base = at(stemmed, 'turn', m, k) ?? 0;
        return target(
          `lme-turn-${m === 'recallAny' ? 'any' : 'all'}${k}-beats-stemmed-bm25`,
          `LongMemEval dev turn ${m === 'recallAny' ? 'recall_any' : 'recall_all'}@${k}, default stack > stemmed BM25 (${base})`,
          '>',
          base,
          '',
          at(stack, 'turn', m, k),
          quickNote,
        );
      }),
    ),
    target(
      'lme-turn-all5',
      'LongMemEval dev turn recall_all@5, default stack',
      '>=',
      0.8,
      '',
      at(stack, 'turn', 'recallAll', 5),
      quickNote,
    ),
    target(
      'lme-turn-any1',
      'LongMemEval dev turn recall_any@1, default stack',
      '>=',
      0.7,
      '',
      at(stack, 'turn', 'recallAny', 1),
      quickNote,
    ),
    target(
      'lme-session-all5',
      'LongMemEval dev session recall_all@5, default stack',
      '>=',
      0.88,
      '',
      at(stack, 'session', 'recallAll', 5),
      quickNote,
    ),
    target(
      'lme-turn-all5-model-gain',
      'LongMemEval dev turn recall_all@5, local model minus default stack',
      '>=',
      0.03,
      '',
      withModel
        ? round((at(withModel, 'turn', 'recallAll', 5) ?? 0) - (at(stack, 'turn', 'recallAll', 5) ?? 0), 3)
        : null,
      localReason ?? quickNote,
    ),
  ];
  const md = renderLongMemEval(
    rows,
    `# LongMemEval-S dev retrieval (${questions.length} scored questions${ctx.quick ? ', quick' : ''})\n\nGenerated by the \`longmemeval\` bench suite (PROVENANCE.md protocol: user turns observed one channel per session, question as the query; session = first appearance in the turn ranking).`,
  );
  const out = ctx.args.get('out') ?? join(BENCH_DIR, 'results', ctx.quick ? 'quick' : '');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'longmemeval.md'), md);
  return {
    title: 'LongMemEval-S dev retrieval (turn and session level)',
    ...(withModel ? {} : { status: 'partial' as const }),
    parameters: {
      data: 'longmemeval-s-dev (PROVENANCE.md protocol; questions without a gold user turn skipped)',
      questions: questions.length,
      ks: LME_KS,
      retrievers: rows.map((r) => r.name),
      localModel: withModel
        ? 'all-MiniLM-L6-v2 (q8 ONNX), retrieval.weights.semantic 0.45, vectors cached on disk by text hash'
        : `not run: ${localReason}`,
      store: 'memory',
    },
    latencies: { conversationSearch: latency.search },
    ratios: {
      searchSeedSeconds: round(latency.seedSeconds, 1),
      searchMessages: latency.messages,
      searchFirstMs: round(latency.firstSearchMs, 1),
      searchWarmupP50Ms: round(latency.warmup.p50, 1),
      searchWarmupMaxMs: round(latency.warmup.max, 1),
      searchWarmupSearches: latency.warmup.n + 1,
    },
    results: Object.fromEntries(
      rows.map((r) => [r.name, { meanSearchMs: round(r.meanSearchMs, 2), summary: r.summary }]),
    ),
    targets,
    charts: [
      {
        file: 'longmemeval.svg',
        title: 'turn recall_all@k, overall',
        svg: barChart({
          title: 'LongMemEval dev turn recall_all@k',
          yLabel: 'recall_all',
          categories: LME_KS.map((k) => `@${k}`),
          series: rows.map((r) => ({
            name: r.name,
            values: LME_KS.map((k) => at(r, 'turn', 'recallAll', k) ?? 0),
          })),
          yMax: 1,
        }),
      },
    ],
    notes: [
      'Recall runs with access.requireAudience: false: the benchmark searches each whole conversation on purpose (no audience, no channel filter).',
      'Reference rows reproduce PROVENANCE.md (rank_bm25 Okapi, k1 1.5, b 0.75); the stemmed row uses core indexTerms (Porter stems, stop words removed).',
      'Full tables in longmemeval.md.',
      ...(localReason ? [`Local model row not run: ${localReason}`] : []),
    ],
  };
};
