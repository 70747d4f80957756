/**
 * Suite — ablations on both datasets: the default stack, then one channel or ranking step switched
 * off at a time, on LoCoMo turn level (conversation.search), LoCoMo observation level
 * (facts.remember + recall) and LongMemEval dev (conversation.search). Everything goes through the
 * public API (bench/src/locomo, bench/src/longmemeval). Full: 4 LoCoMo conversations (1,986 → ~800
 * questions) and all 100 scored LongMemEval questions; quick: 1 conversation, 20 questions.
 * Writes ablation.md next to the JSON.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_DIR, locomoPath, longMemEvalPath } from '../harness/env.js';
import { round, type Suite, type SuiteOutput } from '../harness/suite.js';
import { runLocomo } from '../locomo/run.js';
import { loadLongMemEval } from '../longmemeval/dataset.js';
import { runRetriever, scoredQuestions } from '../longmemeval/run.js';

interface Variant {
  readonly name: string;
  /** Which step it removes. */
  readonly step: string;
  readonly retrieval: Record<string, unknown>;
}

export const VARIANTS: readonly Variant[] = [
  { name: 'default stack', step: '—', retrieval: {} },
  { name: 'no vector score', step: 'vector', retrieval: { weights: { semantic: 0 } } },
  { name: 'no keyword score', step: 'keyword', retrieval: { weights: { lexical: 0 } } },
  { name: 'no entity component', step: 'entity', retrieval: { weights: { entity: 0 } } },
  { name: 'no reciprocal-rank fusion term', step: 'fusion', retrieval: { weights: { rrf: 0 } } },
  {
    name: 'no neighbour smoothing / conversation context',
    step: 'neighbour smoothing',
    retrieval: { neighborWeight: 0, factContextWeight: 0 },
  },
  { name: 'no phrase match', step: 'phrase', retrieval: { phraseWeight: 0 } },
  { name: 'no conversation boost', step: 'conversation boost', retrieval: { conversationWeight: 0 } },
  // The hashing embedder is lexical, so 'auto' already keeps its raw cosine: the row that moves
  // is the forced relative scale (why auto leaves lexical embedders alone). Models: longmemeval
  // and locomo-recall local rows.
  {
    name: 'relative semantic scale forced on the hashing embedder',
    step: 'semantic scale',
    retrieval: { semanticScale: 'relative' },
  },
  { name: 'no temporal component', step: 'temporal', retrieval: { weights: { temporal: 0 } } },
  { name: 'no strength (recency decay)', step: 'recency', retrieval: { weights: { strength: 0 } } },
  {
    name: 'keyword scores against the best hit only (lexicalFloor 0)',
    step: 'lexical floor',
    retrieval: { lexicalFloor: 0 },
  },
  {
    name: 'no candidate depth scaling (depthPerResult 0)',
    step: 'candidate depth',
    retrieval: { depthPerResult: 0 },
  },
];

const KS = [5, 10, 25, 50];

/** One variant's measures (also read by results-readme.ts). */
export interface AblationRow {
  readonly name: string;
  readonly step: string;
  readonly retrieval: Record<string, unknown>;
  readonly locomoTurn: (number | null)[];
  readonly locomoObservation: (number | null)[];
  readonly lme: Record<'turnAny1' | 'turnAny5' | 'turnAll5' | 'turnAll10' | 'sessionAll5', number | null>;
}

export const ablationSuite: Suite = async (ctx): Promise<SuiteOutput> => {
  const dataPath = locomoPath();
  const lmeDir = longMemEvalPath();
  if (!dataPath || !lmeDir)
    return {
      title: 'Ablations (LoCoMo + LongMemEval)',
      status: 'not-run',
      notRunReason: 'locomo10.json or the LongMemEval dev split not found',
      parameters: {},
      targets: [],
    };
  // Every variant × three levels: the full run takes 4 of the 10 conversations to stay within a
  // bench budget on a shared machine (the locomo-recall suite reports all 10 for the default).
  const conversations = ctx.quick ? 1 : 4;
  const questions = scoredQuestions(await loadLongMemEval(lmeDir), ctx.quick ? 20 : undefined);
  const rows: AblationRow[] = [];
  for (const v of VARIANTS) {
    const locomo = await runLocomo({ dataPath, conversations, config: { retrieval: v.retrieval } });
    const lme = await runRetriever(
      { name: v.name, kind: 'memory', config: { retrieval: v.retrieval } },
      questions,
    );
    const frac = (level: 'turn' | 'observation') =>
      KS.map(
        (k) => locomo.levels.find((l) => l.level === level)?.summary['overall']?.atK[String(k)]?.frac ?? null,
      );
    const o = lme.summary['overall'];
    rows.push({
      name: v.name,
      step: v.step,
      retrieval: v.retrieval,
      locomoTurn: frac('turn'),
      locomoObservation: frac('observation'),
      lme: {
        turnAny1: o?.turn['1']?.recallAny ?? null,
        turnAny5: o?.turn['5']?.recallAny ?? null,
        turnAll5: o?.turn['5']?.recallAll ?? null,
        turnAll10: o?.turn['10']?.recallAll ?? null,
        sessionAll5: o?.session['5']?.recallAll ?? null,
      },
    });
  }
  const f1 = (x: number | null) => (x === null ? '–' : x.toFixed(1));
  const f3 = (x: number | null) => (x === null ? '–' : x.toFixed(3));
  const md = [
    `# Ablations (${conversations} LoCoMo conversation(s), ${questions.length} LongMemEval dev questions${ctx.quick ? ', quick' : ''})`,
    '',
    'One step switched off at a time (hashing embedder, in-memory store, public API). LoCoMo: overall partial-credit recall (%), categories 1–5. LongMemEval: turn recall_any@1 / recall_any@5 / recall_all@5 / recall_all@10, session recall_all@5.',
    '',
    '| variant | step off | LoCoMo turn R@5/10/25/50 | LoCoMo observation R@5/10/25/50 | LME turn any@1 / any@5 / all@5 / all@10 | LME session all@5 |',
    '| --- | --- | --- | --- | --- | ---: |',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${r.step} | ${r.locomoTurn.map(f1).join(' / ')} | ${r.locomoObservation.map(f1).join(' / ')} | ${[r.lme.turnAny1, r.lme.turnAny5, r.lme.turnAll5, r.lme.turnAll10].map(f3).join(' / ')} | ${f3(r.lme.sessionAll5)} |`,
    ),
    '',
    'Not ablated here: the graph-hop and entity-hint channels (no configuration switch; they only add facts found through named members or entities, never for message search) and rerank (no reranker is configured by default). The conversation boost is a step of message search (`conversation.search`): it does not touch the observation level (the phrase match is a step of both). Candidate depth is a step of fact recall only: it does not touch the turn level or LongMemEval (message search has its own depth, `poolSize`).',
    '',
  ].join('\n');
  const out = ctx.args.get('out') ?? join(BENCH_DIR, 'results', ctx.quick ? 'quick' : '');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'ablation.md'), md);
  return {
    title: 'Ablations on LoCoMo and LongMemEval dev',
    parameters: {
      conversations,
      questions: questions.length,
      embedder: 'hashing-v1-256',
      store: 'memory',
      ks: KS,
    },
    results: { rows },
    ratios: Object.fromEntries(
      rows
        .slice(1)
        .map((r) => [
          `lmeTurnAll5Delta_${r.step.replace(/[^a-z]+/g, '_')}`,
          round((r.lme.turnAll5 ?? 0) - (rows[0]?.lme.turnAll5 ?? 0), 3),
        ]),
    ),
    targets: [],
    notes: [
      'Recall runs with access.requireAudience: false: the benchmark searches each whole conversation on purpose (no audience, no channel filter).',
      'Full table in ablation.md.',
    ],
  };
};
