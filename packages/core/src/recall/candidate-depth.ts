import type { MemoryConfig } from '../config/schema.js';

/** How many candidates each channel returns and how many fused candidates are scored. */
export interface CandidateDepth {
  readonly channel: number;
  readonly pool: number;
}

/** Upper bounds of the scaled depth: the largest `channelLimit` and `poolSize` the config accepts. */
const MAX_CHANNEL = 500;
const MAX_POOL = 1000;

/**
 * Depth of a recall asking for `topK` facts. Each channel returns at least `depthPerResult` ×
 * topK candidates (never fewer than `channelLimit`); when that deepens the channels, the pool grows
 * in the same proportion, so a long result list is chosen from as wide a field, relative to its
 * length, as a short one. `depthPerResult` 0 keeps the configured depth for every topK.
 */
export function candidateDepth(r: MemoryConfig['retrieval'], topK: number): CandidateDepth {
  const wanted = r.depthPerResult * topK;
  if (wanted <= r.channelLimit) return { channel: r.channelLimit, pool: r.poolSize };
  const channel = Math.min(MAX_CHANNEL, wanted);
  const pool = Math.min(MAX_POOL, Math.ceil((r.poolSize * channel) / r.channelLimit));
  return { channel, pool: Math.max(pool, r.poolSize) };
}
