/**
 * LongMemEval-S dev retrieval harness (PROVENANCE.md protocol): turn and session level,
 * recall_any / recall_all / NDCG at k = 1, 3, 5, 10, 30, 50, overall and per question type.
 *
 *   node bench/dist/longmemeval/run.js [--retrievers=bm25-plain,bm25-stemmed,default]
 *                                      [--questions=N] [--config='{"retrieval":{…}}']
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { longMemEvalPath, parseArgs } from '../harness/env.js';
import type { Embedder, MemoryConfigInput } from '../locomo/core.js';
import { type BaselineName, rankBaseline } from './baselines.js';
import { type LmeQuestion, loadLongMemEval } from './dataset.js';
import { rankWithMemory } from './memory-retriever.js';
import { LME_KS, type LmeBucket, LmeTally, sessionRanking } from './scoring.js';

export type RetrieverSpec =
  | { readonly name: string; readonly kind: BaselineName }
  | {
      readonly name: string;
      readonly kind: 'memory';
      readonly config?: MemoryConfigInput;
      readonly makeEmbedder?: () => Embedder | Promise<Embedder>;
    };

export interface RetrieverResult {
  readonly name: string;
  readonly questions: number;
  readonly meanSearchMs: number;
  readonly summary: Record<string, LmeBucket>;
}

/** Questions with a gold user turn (the scored ones), the first `limit` of them. */
export function scoredQuestions(all: readonly LmeQuestion[], limit?: number): LmeQuestion[] {
  const scored = all.filter((q) => q.goldTurns.length > 0);
  return scored.slice(0, limit ?? scored.length);
}

/** Scores one retriever over the questions. */
export async function runRetriever(
  spec: RetrieverSpec,
  questions: readonly LmeQuestion[],
): Promise<RetrieverResult> {
  const tally = new LmeTally();
  const limit = Math.max(...LME_KS);
  let searchMs = 0;
  for (const q of questions) {
    let ranked: string[];
    if (spec.kind === 'memory') {
      const r = await rankWithMemory(q, limit, {
        ...(spec.config ? { config: spec.config } : {}),
        ...(spec.makeEmbedder ? { makeEmbedder: spec.makeEmbedder } : {}),
      });
      ranked = r.ranked;
      searchMs += r.searchMs;
    } else {
      const t0 = performance.now();
      ranked = rankBaseline(spec.kind, q, limit);
      searchMs += performance.now() - t0;
    }
    const sessionOf = new Map(q.sessions.flatMap((s) => s.turns.map((t) => [t.docId, t.sessionKey])));
    tally.add(
      q.questionType,
      { ranked, gold: new Set(q.goldTurns) },
      {
        ranked: sessionRanking(ranked, (id) => sessionOf.get(id) ?? id),
        gold: new Set(q.goldSessions),
      },
    );
  }
  return {
    name: spec.name,
    questions: questions.length,
    meanSearchMs: searchMs / Math.max(1, questions.length),
    summary: tally.summary(),
  };
}

/** One line per retriever: the headline numbers of the table. */
export function headline(r: RetrieverResult): string {
  const o = r.summary['overall'];
  const t = (k: number) => o?.turn[String(k)];
  const s = (k: number) => o?.session[String(k)];
  const f = (x: number | undefined) => (x === undefined ? '–' : x.toFixed(3));
  return `${r.name.padEnd(28)} turn any@1 ${f(t(1)?.recallAny)} any@5 ${f(t(5)?.recallAny)} all@5 ${f(t(5)?.recallAll)} all@10 ${f(t(10)?.recallAll)} all@30 ${f(t(30)?.recallAll)} ndcg@10 ${f(t(10)?.ndcg)} | session all@5 ${f(s(5)?.recallAll)} all@10 ${f(s(10)?.recallAll)} (${r.meanSearchMs.toFixed(1)} ms)`;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const dir = args.get('data') ?? longMemEvalPath();
  if (!dir) throw new Error('LongMemEval dev split not found: pass --data=<dir> or set LONGMEMEVAL_DEV_PATH');
  const questions = scoredQuestions(
    await loadLongMemEval(dir),
    args.has('questions') ? Number(args.get('questions')) : undefined,
  );
  const config = args.has('config') ? (JSON.parse(args.get('config') as string) as MemoryConfigInput) : {};
  const names = (args.get('retrievers') ?? 'bm25-plain,bm25-stemmed,default').split(',');
  for (const name of names) {
    const spec: RetrieverSpec =
      name === 'bm25-plain' || name === 'bm25-stemmed'
        ? { name, kind: name }
        : { name, kind: 'memory', config };
    process.stdout.write(`${headline(await runRetriever(spec, questions))}\n`);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
}
