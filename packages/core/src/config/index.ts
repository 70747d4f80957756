export { type ParseConfigOptions, parseConfig } from './parse-config.js';
export type {
  EmbeddingsConfig,
  LlmConfig,
  LlmEndpointConfig,
  MemoryConfig,
  MemoryConfigInput,
} from './schema.js';
export { DEFAULT_STORAGE, type StorageSpec, sqlitePath } from './url-specs.js';
