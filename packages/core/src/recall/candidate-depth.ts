import { CHANNEL_LIMIT_MAX, POOL_SIZE_MAX } from '../config/groups.js';
import type { MemoryConfig } from '../config/schema.js';

/** How many candidates each channel returns and how many fused candidates are scored. */
export interface CandidateDepth {
  readonly channel: number;
  readonly pool: number;
}

/**
 * Depth of a recall asking for `topK` facts. Each channel returns at least `depthPerResult` ×
 * topK candidates (never fewer than `channelLimit`); when that deepens the channels, the pool grows
 * in the same proportion, so a long result list is chosen from as wide a field, relative to its
 * length, as a short one. `depthPerResult` 0 keeps the configured depth for every topK.
 */
export function candidateDepth(r: MemoryConfig['retrieval'], topK: number): CandidateDepth {
  const wanted = r.depthPerResult * topK;
  if (wanted <= r.channelLimit) return { channel: r.channelLimit, pool: r.poolSize };
  // Never past the largest channelLimit and poolSize the config accepts.
  const channel = Math.min(CHANNEL_LIMIT_MAX, wanted);
  return { channel, pool: Math.min(POOL_SIZE_MAX, Math.ceil((r.poolSize * channel) / r.channelLimit)) };
}
