import type { LevelResult } from './report.js';

/** Variants of the default stack, each switching one technique off (or back to a plain baseline). */
export const ABLATIONS: readonly {
  readonly name: string;
  readonly level: 'turn' | 'observation';
  readonly retrieval: Record<string, unknown>;
}[] = [
  { name: 'no neighbour smoothing (neighborWeight 0)', level: 'turn', retrieval: { neighborWeight: 0 } },
  { name: 'neighbour window 1', level: 'turn', retrieval: { neighborWindow: 1 } },
  { name: 'no temporal component', level: 'turn', retrieval: { weights: { temporal: 0 } } },
  {
    name: 'semantic-heavy weights (0.45 / 0.3, rrf 0.1)',
    level: 'turn',
    retrieval: { weights: { semantic: 0.45, lexical: 0.3, rrf: 0.1 } },
  },
  {
    name: 'no conversation context (factContextWeight 0)',
    level: 'observation',
    retrieval: { factContextWeight: 0 },
  },
  { name: 'no temporal component', level: 'observation', retrieval: { weights: { temporal: 0 } } },
  { name: 'no entity component', level: 'observation', retrieval: { weights: { entity: 0 } } },
  {
    name: 'semantic-heavy weights (0.45 / 0.3, rrf 0.1)',
    level: 'observation',
    retrieval: { weights: { semantic: 0.45, lexical: 0.3, rrf: 0.1 } },
  },
];

export interface AblationResult {
  readonly name: string;
  readonly level: 'turn' | 'observation';
  readonly retrieval: Record<string, unknown>;
  /** k → overall frac (categories 1–5). */
  readonly overall: Record<string, number>;
}

export function ablationResult(
  a: (typeof ABLATIONS)[number],
  r: LevelResult,
  ks: readonly number[],
): AblationResult {
  const overall: Record<string, number> = {};
  const summary = new Map(Object.entries(r.summary));
  for (const k of ks) overall[String(k)] = summary.get('overall')?.atK[String(k)]?.frac ?? Number.NaN;
  return { name: a.name, level: a.level, retrieval: a.retrieval, overall };
}

export function renderAblations(
  results: readonly AblationResult[],
  defaults: readonly LevelResult[],
  ks: readonly number[],
): string {
  const lines = [
    '## Ablations (overall frac, categories 1–5)',
    '',
    `| level | variant | ${ks.map((k) => `R@${k}`).join(' | ')} |`,
    `| --- | --- | ${ks.map(() => '---:').join(' | ')} |`,
  ];
  for (const d of defaults) {
    const summary = new Map(Object.entries(d.summary));
    const cells = ks.map((k) => (summary.get('overall')?.atK[String(k)]?.frac ?? Number.NaN).toFixed(1));
    lines.push(`| ${d.level} | **default stack** | ${cells.join(' | ')} |`);
    for (const a of results.filter((x) => x.level === d.level))
      lines.push(
        `| ${a.level} | ${a.name} | ${ks.map((k) => (a.overall[String(k)] ?? Number.NaN).toFixed(1)).join(' | ')} |`,
      );
  }
  return `${lines.join('\n')}\n`;
}
