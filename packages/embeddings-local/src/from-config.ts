import { ErrorCode, MemoryError } from '@permafrost/core';
import { createLocalEmbedder, type LocalEmbedder, type LocalEmbedderOptions } from './local-embedder.js';
import { DEFAULT_MODEL } from './model-folder.js';

/** What core passes for `embeddings: "local"` / `"local:<folder>"` (its parsed `local` config). */
export interface LocalEmbeddingsConfig {
  /** Models root or model folder; `null` means the default ({@link defaultModelPath}). */
  readonly modelPath: string | null;
  /** Model folder name, e.g. `all-MiniLM-L6-v2`. */
  readonly model: string;
  readonly dtype?: LocalEmbedderOptions['dtype'];
  readonly batchSize?: number;
}

/**
 * The entry point core calls after `import('@permafrost/embeddings-local')` for `local` embeddings.
 * Returns the uncached embedder (core wraps it with `cacheEmbedder`). Nothing is read from disk
 * until the first `embed` or `load`.
 */
export function createEmbedderFromConfig(config: LocalEmbeddingsConfig): LocalEmbedder {
  if (typeof config !== 'object' || config === null) {
    throw new MemoryError(ErrorCode.CONFIG_INVALID, 'local embeddings config must be an object');
  }
  const { modelPath, model, dtype, batchSize } = config;
  if (modelPath !== null && typeof modelPath !== 'string') {
    throw new MemoryError(ErrorCode.CONFIG_INVALID, 'local embeddings modelPath must be a string or null');
  }
  return createLocalEmbedder({
    ...(modelPath === null ? {} : { modelPath }),
    model: typeof model === 'string' && model !== '' ? model : DEFAULT_MODEL,
    ...(dtype === undefined ? {} : { dtype }),
    ...(batchSize === undefined ? {} : { batchSize }),
  });
}
