/**
 * Suite 4 — LoCoMo evidence recall (bench/src/locomo): turn and observation level, R@5/10/25/50
 * per category, with the hashing embedder (default stack) and with the local model when its
 * folder exists. `bench/results/locomo.{json,md}` stay the output of `locomo/run.js --ablations`.
 */
import { createLocalEmbedder } from '@permafrost/embeddings-local';
import { locomoPath } from '../harness/env.js';
import { tryLocalEmbedder } from '../harness/local-model.js';
import { round, type Suite, type SuiteOutput, target } from '../harness/suite.js';
import { barChart } from '../harness/svg.js';
import { diskCachedEmbedder } from '../harness/vector-cache.js';
import { OBSERVATION_ANCHORS, TURN_ANCHORS } from '../locomo/anchors.js';
import type { LevelResult } from '../locomo/report.js';
import { type LocomoRun, runLocomo } from '../locomo/run.js';

const KS = [5, 10, 25, 50] as const;
const CATS = [
  ['category_4', 'single-hop'],
  ['category_1', 'multi-hop'],
  ['category_2', 'temporal'],
  ['category_3', 'open-domain'],
  ['category_5', 'adversarial'],
  ['overall', 'overall'],
] as const;

const frac = (l: LevelResult | undefined, key: string, k: number): number | null =>
  l?.summary[key]?.atK[String(k)]?.frac ?? null;

function table(run: LocomoRun) {
  return run.levels.map((l) => ({
    level: l.level,
    questions: l.questions,
    meanQueryMs: round(l.meanQueryMs, 2),
    loadAndQuerySeconds: round(l.loadAndQueryMs / 1000, 1),
    recall: Object.fromEntries(
      KS.map((k) => [`R@${k}`, Object.fromEntries(CATS.map(([key, name]) => [name, frac(l, key, k)]))]),
    ),
    overall_1_4: Object.fromEntries(KS.map((k) => [`R@${k}`, frac(l, 'overall_1_4', k)])),
  }));
}

export const locomoRecallSuite: Suite = async (ctx): Promise<SuiteOutput> => {
  const dataPath = locomoPath();
  if (!dataPath)
    return {
      title: 'LoCoMo evidence recall',
      status: 'not-run',
      notRunReason: 'locomo10.json not found (set LOCOMO_PATH)',
      parameters: {},
      targets: [],
    };
  const conversations = ctx.quick ? 1 : 10;
  const hashing = await runLocomo({ dataPath, conversations });
  const local = await tryLocalEmbedder();
  let localRun: LocomoRun | null = null;
  let localReason: string | null = null;
  if ('embedder' in local) {
    await local.embedder.close();
    const folder = local.folder;
    localRun = await runLocomo({
      dataPath,
      conversations,
      makeEmbedder: () => diskCachedEmbedder(createLocalEmbedder({ modelPath: folder })),
      // with a sentence-embedding model the semantic channel carries more (config docs)
      config: { retrieval: { weights: { semantic: 0.45 } } },
    });
  } else localReason = local.reason;
  const turnH = hashing.levels.find((l) => l.level === 'turn');
  const turnL = localRun?.levels.find((l) => l.level === 'turn');
  const dragon = TURN_ANCHORS[0]?.atK ?? {};
  const targets = KS.flatMap((k) => {
    const anchor = dragon[String(k)]?.[5] ?? 0;
    const h = frac(turnH, 'overall', k);
    const l = frac(turnL, 'overall', k);
    return [
      target(
        `locomo-turn-r${k}-hashing`,
        `LoCoMo turn-level R@${k} (all categories), default stack vs DRAGON ${anchor}`,
        '>',
        anchor,
        '%',
        h,
        ctx.quick ? 'quick run: 1 conversation only' : undefined,
      ),
      target(
        `locomo-turn-r${k}-local`,
        `LoCoMo turn-level R@${k}, local embeddings ≥ DRAGON + 5 (${round(anchor + 5, 1)})`,
        '>=',
        round(anchor + 5, 1),
        '%',
        l,
        localReason ?? (ctx.quick ? 'quick run: 1 conversation only' : undefined),
      ),
    ];
  });
  const series = [
    { name: 'hashing (default)', values: CATS.map(([key]) => frac(turnH, key, 10) ?? 0) },
    ...(turnL ? [{ name: 'local MiniLM', values: CATS.map(([key]) => frac(turnL, key, 10) ?? 0) }] : []),
    { name: 'DRAGON (paper)', values: [...(dragon['10'] ?? [])].map((x, i) => (i < 6 ? x : 0)) },
  ];
  const obsH = hashing.levels.find((l) => l.level === 'observation');
  const obsL = localRun?.levels.find((l) => l.level === 'observation');
  const obsDragon = OBSERVATION_ANCHORS[0]?.atK ?? {};
  return {
    title: 'LoCoMo evidence recall (turn and observation level)',
    ...(localRun ? {} : { status: 'partial' as const }),
    parameters: {
      data: 'locomo10.json (benchmarks.md §1.3 scoring: official partial-credit frac, empty evidence skipped)',
      conversations,
      ks: KS,
      embedders: ['hashing-v1-256', ...(localRun ? [String(localRun.meta['embedder'])] : [])],
      localModel: localRun
        ? 'all-MiniLM-L6-v2 (q8 ONNX), retrieval.weights.semantic 0.45'
        : `not run: ${localReason}`,
      store: 'memory',
    },
    ratios: Object.fromEntries(
      KS.flatMap((k) => {
        const a = dragon[String(k)]?.[5] ?? 0;
        const h = frac(turnH, 'overall', k);
        const l = frac(turnL, 'overall', k);
        return [
          ...(h !== null ? [[`turnR${k}HashingMinusDragon`, round(h - a, 1)]] : []),
          ...(l !== null ? [[`turnR${k}LocalMinusDragon`, round(l - a, 1)]] : []),
        ];
      }),
    ),
    results: {
      hashing: table(hashing),
      local: localRun ? table(localRun) : { notRun: localReason },
      anchors: { turnDragon: dragon, observationDragon: obsDragon },
      observationOverallR10: {
        hashing: frac(obsH, 'overall', 10),
        local: frac(obsL, 'overall', 10),
        dragon: obsDragon['10']?.[5] ?? null,
      },
    },
    targets,
    charts: [
      {
        file: 'locomo-recall.svg',
        title: 'turn-level R@10 per category',
        svg: barChart({
          title: 'LoCoMo turn-level recall@10 per category (%)',
          yLabel: 'R@10 (frac, %)',
          categories: CATS.map(([, n]) => n),
          series,
          yMax: 100,
        }),
      },
    ],
    notes: [
      'Recall runs with access.requireAudience: false: the benchmark searches each whole conversation on purpose (no audience, no channel filter).',
      "Turn level: every turn is a message, questions go through conversation.search; observation level: the dataset's observations are facts with their dia_ids, questions go through recall (guild scope). Scored by bench/src/locomo/scoring.ts.",
      ...(localReason ? [`Local model rows not run: ${localReason}`] : []),
      'bench/results/locomo.{json,md} (with ablations) are produced by `node bench/dist/locomo/run.js --ablations` and are not rewritten by this suite.',
    ],
  };
};
