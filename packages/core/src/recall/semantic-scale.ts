import type { MemoryConfig } from '../config/schema.js';
import type { Embedder } from '../ports/embedder.js';

/** x clamped to [0, 1]; not a finite number → 0. */
export function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}

export type SemanticScale = MemoryConfig['retrieval']['semanticScale'];

/** Whether cosines are min-max normalised per query (`retrieval.semanticScale`; 'auto' asks the embedder). */
export function relativeSemantic(scale: SemanticScale, embedder: Pick<Embedder, 'lexical'>): boolean {
  return scale === 'relative' || (scale === 'auto' && embedder.lexical !== true);
}

/**
 * The semantic component of each positive cosine of one query's vector hits: the cosine clamped
 * to [0, 1], or, when `relative`, (cosine − worst) / (best − worst) over the positive hits (1 for
 * every hit when they all tie). BM25 is divided by the query's best the same way: a model whose
 * cosines sit in a narrow band (0.3–0.6) otherwise moves the fused score less than its ranking
 * deserves.
 */
export function semanticScaler(cosines: readonly number[], relative: boolean): (cosine: number) => number {
  if (!relative) return clamp01;
  let best = Number.NEGATIVE_INFINITY;
  let worst = Number.POSITIVE_INFINITY;
  for (const c of cosines) {
    if (!(c > 0) || !Number.isFinite(c)) continue;
    best = Math.max(best, c);
    worst = Math.min(worst, c);
  }
  const span = best - worst;
  return (cosine) => (span > 0 ? clamp01((cosine - worst) / span) : cosine > 0 ? 1 : 0);
}
