import type { Reranker } from '../ports/reranker.js';

export interface RerankOutcome<T> {
  readonly items: T[];
  /** Scores by position in `items` (null outside the reranked pool). */
  readonly scores: (number | null)[];
  /** The reranker failed, timed out or returned unusable scores; `items` kept their order. */
  readonly failed: boolean;
}

class RerankTimeout extends Error {}

/**
 * Reorders the first `poolSize` items by the reranker's scores (stable; the rest follow in their
 * order). A reranker that throws, answers after `timeoutMs` (it is aborted) or returns a wrong
 * number of scores leaves the order unchanged and reports `failed`.
 */
export async function rerankTop<T>(
  reranker: Reranker,
  query: string,
  items: readonly T[],
  textOf: (item: T) => string,
  poolSize: number,
  timeoutMs: number,
): Promise<RerankOutcome<T>> {
  const pool = items.slice(0, poolSize);
  const unchanged = (failed: boolean): RerankOutcome<T> => ({
    items: [...items],
    scores: items.map(() => null),
    failed,
  });
  if (pool.length === 0) return unchanged(false);
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new RerankTimeout('reranker timed out'));
    }, timeoutMs);
  });
  let scores: number[];
  try {
    scores = await Promise.race([reranker.score(query, pool.map(textOf), controller.signal), timeout]);
  } catch {
    return unchanged(true);
  } finally {
    clearTimeout(timer);
  }
  if (!Array.isArray(scores) || scores.length !== pool.length || !scores.every((s) => Number.isFinite(s)))
    return unchanged(true);
  const order = pool.map((item, i) => ({ item, score: scores[i] as number, i }));
  order.sort((a, b) => b.score - a.score || a.i - b.i);
  return {
    items: [...order.map((o) => o.item), ...items.slice(pool.length)],
    scores: [...order.map((o) => o.score), ...items.slice(pool.length).map(() => null)],
    failed: false,
  };
}
