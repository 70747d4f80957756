/** Renders bench/results/README.md (a table per suite, every target marked met/missed) from <suite>.json. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LmeBucket } from './longmemeval/scoring.js';
import { type BenchResult, validateBenchResult } from './schema/bench-result.js';
import type { AblationRow } from './suites/ablation.js';

export const SUITE_ORDER = [
  'observe',
  'recall',
  'extraction',
  'locomo-recall',
  'longmemeval',
  'ablation',
  'context',
  'embeddings',
  'mem0',
  'flood',
  'history-import',
] as const;

export function loadResults(dir: string): BenchResult[] {
  return SUITE_ORDER.filter((s) => existsSync(join(dir, `${s}.json`))).map((s) =>
    validateBenchResult(JSON.parse(readFileSync(join(dir, `${s}.json`), 'utf8'))),
  );
}

const cell = (v: number | null | undefined) => v ?? '–';
const mark = (met: boolean | null) =>
  met === true ? '✅ met' : met === false ? '❌ missed' : '— not measured';
const num = (v: number | null, unit: string) =>
  v === null ? '–' : `${v.toLocaleString('en-US', { maximumFractionDigits: 3 })}${unit ? ` ${unit}` : ''}`;

export function targetRows(results: readonly BenchResult[]): string[] {
  return results.flatMap((r) =>
    r.targets.map(
      (t) => `| ${r.suite} | ${t.description} | ${t.threshold} | ${num(t.value, t.unit)} | ${mark(t.met)} |`,
    ),
  );
}

function suiteTable(r: BenchResult): string[] {
  const res = r.results as Record<string, unknown>;
  const out: string[] = [];
  switch (r.suite) {
    case 'observe': {
      const b = res['breakdown'] as Record<string, number>;
      out.push('| metric | value |', '| --- | ---: |');
      out.push(`| messages/s (median of repetitions) | ${num(res['messagesPerSecond'] as number, '')} |`);
      out.push(`| p50 / p99 per call | ${res['p50Ms']} / ${res['p99Ms']} ms |`);
      const w = res['withRenames'] as Record<string, number>;
      out.push(
        `| with a name change every 10th message: msg/s, p99 | ${num(w['messagesPerSecond'] ?? null, '')}, ${w['p99Ms']} ms |`,
      );
      out.push(
        `| time per call: validation / opt-out read / queue insert / rest | ${b['validationUs']} / ${b['optOutReadUs']} / ${b['queueInsertUs']} / ${b['restUs']} µs |`,
      );
      break;
    }
    case 'recall': {
      out.push(
        '| backend | facts | promptContext p50 / p95 (ms) | recall p50 / p95 (ms) | peak RSS (MiB) | seed facts/s |',
        '| --- | ---: | ---: | ---: | ---: | ---: |',
      );
      for (const row of res['rows'] as Record<string, number | string>[])
        out.push(
          `| ${row['backend']} | ${num(row['facts'] as number, '')} | ${row['promptContextP50Ms']} / ${row['promptContextP95Ms']} | ${row['recallP50Ms']} / ${row['recallP95Ms']} | ${row['peakRssMiB']} | ${num(row['seedFactsPerSecond'] as number, '')} |`,
        );
      break;
    }
    case 'extraction': {
      const p = res['per1000Messages'] as Record<string, number>;
      const b = res['batches'] as Record<string, number>;
      out.push('| metric | value |', '| --- | ---: |');
      out.push(`| messages (LoCoMo turns + lurker noise) | ${num(res['messages'] as number, '')} |`);
      out.push(
        `| batches: chatter / noise / community | ${b['chatter']} / ${b['noise']} / ${b['community']} |`,
      );
      out.push(`| LLM calls per 1,000 messages (all purposes) | ${p['llmCalls']} |`);
      out.push(`| extraction calls per 1,000 messages | ${p['extractionCalls']} |`);
      out.push(
        `| prompt / completion tokens per 1,000 messages | ${num(p['promptTokens'] ?? null, '')} / ${num(p['completionTokens'] ?? null, '')} |`,
      );
      out.push(
        `| extraction calls per 10 chatter messages | ${r.ratios['extractionCallsPer10ChatterMessages']} |`,
      );
      out.push(`| noise batches skipped without a call | ${r.ratios['noiseBatchSkipShare']} |`);
      out.push(`| all batches skipped without a call | ${r.ratios['overallBatchSkipShare']} |`);
      out.push(
        `| LLM calls by purpose | ${Object.entries(res['llmCallsByPurpose'] as Record<string, number>)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')} |`,
      );
      break;
    }
    case 'locomo-recall': {
      out.push(
        '| embedder | level | R@5 | R@10 | R@25 | R@50 |',
        '| --- | --- | ---: | ---: | ---: | ---: |',
      );
      for (const emb of ['hashing', 'local'] as const) {
        const levels = res[emb];
        if (!Array.isArray(levels)) {
          out.push(`| ${emb} | not run | – | – | – | – |`);
          continue;
        }
        for (const l of levels as { level: string; recall: Record<string, Record<string, number>> }[])
          out.push(
            `| ${emb} | ${l.level} | ${['5', '10', '25', '50'].map((k) => l.recall[`R@${k}`]?.['overall'] ?? '–').join(' | ')} |`,
          );
      }
      out.push(
        '| DRAGON (paper) | turn | 56.7 | 66.2 | 76.7 | 82.7 |',
        '| DRAGON (paper) | observation | 56.2 | 61.3 | 67.5 | 71.2 |',
      );
      break;
    }
    case 'longmemeval': {
      // The headline measures; every k, NDCG and the per-type tables are in longmemeval.md.
      out.push(
        '| retriever | turn any@1 | turn any@5 | turn all@5 | turn all@10 | session all@5 |',
        '| --- | ---: | ---: | ---: | ---: | ---: |',
      );
      for (const [name, row] of Object.entries(res)) {
        const overall = (row as { summary?: Record<string, LmeBucket> }).summary?.['overall'];
        const at = (level: 'turn' | 'session', k: number, m: 'recallAny' | 'recallAll') =>
          cell(overall?.[level]?.[String(k)]?.[m]);
        out.push(
          `| ${name} | ${at('turn', 1, 'recallAny')} | ${at('turn', 5, 'recallAny')} | ${at('turn', 5, 'recallAll')} | ${at('turn', 10, 'recallAll')} | ${at('session', 5, 'recallAll')} |`,
        );
      }
      break;
    }
    case 'ablation': {
      out.push('Every row, with the LongMemEval measures, is in [ablation.md](ablation.md).', '');
      out.push(
        '| switched off | LoCoMo turn R@5 / 10 / 25 / 50 | LoCoMo observation R@5 / 10 / 25 / 50 | LongMemEval turn any@1 / all@5 |',
        '| --- | --- | --- | --- |',
      );
      for (const row of (res['rows'] ?? []) as AblationRow[])
        out.push(
          `| ${row.name} | ${row.locomoTurn.map(cell).join(' / ')} | ${row.locomoObservation.map(cell).join(' / ')} | ${cell(row.lme.turnAny1)} / ${cell(row.lme.turnAll5)} |`,
        );
      break;
    }
    case 'context': {
      out.push('| metric | value |', '| --- | ---: |');
      out.push(`| instant p50 / p95 | ${r.latencies['instant']?.p50} / ${res['instantP95Ms']} ms |`);
      out.push(
        `| normal (long-term, cache miss) p50 / p95 | ${r.latencies['normal']?.p50} / ${res['normalP95Ms']} ms |`,
      );
      out.push(
        `| cache hit rate, questions asked twice (normal / deep) | ${r.ratios['cacheHitRateNormal'] ?? '–'} / ${r.ratios['cacheHitRateDeep'] ?? '–'} |`,
      );
      break;
    }
    case 'embeddings': {
      if (r.status === 'not-run') break;
      out.push('| metric | value |', '| --- | ---: |');
      out.push(`| texts/s (batch 32) | ${num(res['textsPerSecond'] as number, '')} |`);
      out.push(`| single text p50 | ${r.latencies['singleText']?.p50} ms |`);
      out.push(`| extra RSS of the model | ${res['modelExtraRssMiB']} MiB |`);
      break;
    }
    case 'mem0': {
      out.push(
        '| memories | mem0 add (median) | Permafrost add (median) | mem0 search p50 / p95 | Permafrost recall p50 / p95 | p50 ratio | p95 ratio |',
        '| ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      );
      for (const s of res['scale'] as Record<string, number>[])
        out.push(
          `| ${num(s['memories'] ?? null, '')} | ${s['mem0AddMedianMs']} ms | ${s['permafrostAddMedianMs']} ms | ${s['mem0SearchP50Ms']} / ${s['mem0SearchP95Ms']} ms | ${s['permafrostSearchP50Ms']} / ${s['permafrostSearchP95Ms']} ms | ${s['p50Ratio']}× | ${s['p95Ratio']}× |`,
        );
      const rec = res['locomoObservationRecall'] as {
        mem0: Record<string, { atK: Record<string, { frac: number }> }>;
        permafrost: Record<string, { atK: Record<string, { frac: number }> }>;
      } | null;
      if (rec) {
        out.push(
          '',
          '| LoCoMo observation recall (overall, frac %) | R@5 | R@10 | R@25 | R@50 |',
          '| --- | ---: | ---: | ---: | ---: |',
        );
        for (const [name, s] of [
          ['mem0 OSS', rec.mem0],
          ['Permafrost', rec.permafrost],
        ] as const)
          out.push(
            `| ${name} | ${['5', '10', '25', '50'].map((k) => s['overall']?.atK[k]?.frac ?? '–').join(' | ')} |`,
          );
      }
      break;
    }
    case 'flood': {
      const receipts = res['floodReceipts'] as Record<string, number>;
      out.push('| measure | value |', '| --- | ---: |');
      out.push(
        `| flood messages accepted / rejected member_over_rate | ${receipts['accepted'] ?? 0} / ${receipts['rejected:member_over_rate'] ?? 0} |`,
      );
      out.push(
        `| other members' messages observed / rejected | ${res['othersObserved']} / ${res['othersRejected']} |`,
      );
      out.push(
        `| other members' observe p99 / max during the flood | ${res['otherObserveP99Ms']} / ${res['otherObserveMaxMs']} ms |`,
      );
      out.push(
        `| extraction calls on the flood / all calls | ${res['callsOnFlood']} / ${res['modelCalls']} |`,
      );
      break;
    }
    case 'history-import': {
      const rerun = res['rerun'] as Record<string, number>;
      const x = res['extraction'] as Record<string, number>;
      out.push('| measure | value |', '| --- | ---: |');
      out.push(
        `| messages read / stored / skipped | ${res['fetched']} / ${res['stored']} / ${res['skipped']} |`,
      );
      out.push(
        `| requests, seconds, messages stored per second | ${res['requests']}, ${res['importSeconds']} s, ${num(res['messagesPerSecond'] as number, 'msg/s')} |`,
      );
      out.push(
        `| second run: requests, stored, time | ${rerun['requests']}, ${rerun['stored']}, ${rerun['ms']} ms |`,
      );
      out.push(
        `| extraction afterwards: batches, LLM calls, per 1,000 messages, seconds | ${x['batches']}, ${x['llmCalls']}, ${x['callsPer1000']}, ${x['seconds']} s |`,
      );
      break;
    }
    default:
      break;
  }
  return out;
}

export function renderResultsReadme(results: readonly BenchResult[]): string {
  const lines = [
    '# Benchmark results',
    '',
    'Generated by `pnpm bench` (`bench/src/run.ts` → `bench/src/results-readme.ts`) from the `<suite>.json` files next to this README; each file follows `schema.json` (`bench/src/schema/bench-result.ts`). Machine, node version, git sha, date, parameters, raw samples, percentiles, ratios and targets are in each file. The machine is a shared 2-core VM: numbers are medians of repetitions after warm-up, ratios are measured within one process run, load averages are recorded per suite.',
    '',
    '## Targets',
    '',
    '| suite | target | threshold | measured | status |',
    '| --- | --- | --- | ---: | --- |',
    ...targetRows(results),
    '',
  ];
  for (const r of results) {
    lines.push(`## ${r.suite}: ${r.title}`, '');
    lines.push(
      `Status **${r.status}**${r.notRunReason ? ` (${r.notRunReason})` : ''}${r.quick ? ' — quick run' : ''}; git ${r.gitSha}, ${r.date}, node ${r.node}, ${r.machine.cpuModel} ×${r.machine.cores}, load ${r.machine.loadAverageBefore[0]} → ${r.machine.loadAverageAfter[0]}, ${r.durationSeconds} s.`,
      '',
    );
    const table = suiteTable(r);
    if (table.length > 0) lines.push(...table, '');
    if (r.targets.length > 0) {
      lines.push('| target | threshold | measured | status |', '| --- | --- | ---: | --- |');
      for (const t of r.targets)
        lines.push(
          `| ${t.description} | ${t.threshold} | ${num(t.value, t.unit)} | ${mark(t.met)}${t.note ? ` (${t.note})` : ''} |`,
        );
      lines.push('');
    }
    for (const c of r.charts) lines.push(`![${c.title}](${c.file})`, '');
    for (const n of r.notes) lines.push(`- ${n}`);
    if (r.notes.length > 0) lines.push('');
  }
  lines.push(
    '## Storage (store-level)',
    '',
    '`storage.json` is written by `node bench/dist/run-storage.js` (store-level inserts, KNN, keyword search and enqueue; not part of `pnpm bench`).',
    '',
  );
  return `${lines.join('\n')}\n`;
}

export function writeResultsReadme(dir: string): void {
  writeFileSync(join(dir, 'README.md'), renderResultsReadme(loadResults(dir)));
}
