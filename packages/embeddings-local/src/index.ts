export const packageName = '@permafrost/embeddings-local';

export { createEmbedderFromConfig, type LocalEmbeddingsConfig } from './from-config.js';
export { createLocalEmbedder, type LocalEmbedder, type LocalEmbedderOptions } from './local-embedder.js';
export {
  candidateFolders,
  DEFAULT_MODEL,
  defaultModelPath,
  type LocalModelDtype,
  ONNX_FILES,
  requiredModelFiles,
} from './model-folder.js';
