import type { RetrieverResult } from './run.js';
import { LME_KS } from './scoring.js';

const f = (x: number | undefined) => (x === undefined ? '–' : x.toFixed(3));

/** Markdown tables: overall turn and session metrics per retriever, then turn recall_all@5 per type. */
export function renderLongMemEval(results: readonly RetrieverResult[], header: string): string {
  const lines = [header, ''];
  for (const level of ['turn', 'session'] as const)
    for (const metric of ['recallAny', 'recallAll', 'ndcg'] as const) {
      lines.push(
        `### ${level} ${metric === 'recallAny' ? 'recall_any' : metric === 'recallAll' ? 'recall_all' : 'NDCG'}@k`,
        '',
        `| retriever | ${LME_KS.map((k) => `@${k}`).join(' | ')} |`,
        `| --- | ${LME_KS.map(() => '---:').join(' | ')} |`,
      );
      for (const r of results)
        lines.push(
          `| ${r.name} | ${LME_KS.map((k) => f(r.summary['overall']?.[level][String(k)]?.[metric])).join(' | ')} |`,
        );
      lines.push('');
    }
  const types = Object.keys(results[0]?.summary ?? {}).filter((t) => t !== 'overall');
  lines.push(
    '### turn recall_all@5 per question type',
    '',
    `| retriever | ${types.map((t) => `${t} (n=${results[0]?.summary[t]?.questions ?? 0})`).join(' | ')} |`,
    `| --- | ${types.map(() => '---:').join(' | ')} |`,
  );
  for (const r of results)
    lines.push(`| ${r.name} | ${types.map((t) => f(r.summary[t]?.turn['5']?.recallAll)).join(' | ')} |`);
  return `${lines.join('\n')}\n`;
}
