export { type ParseConfigOptions, parseConfig } from './parse-config.js';
export type {
  EmbeddingsConfig,
  LlmConfig,
  LlmEndpointConfig,
  MemoryConfig,
  MemoryConfigInput,
} from './schema.js';
export { type StorageSpec, sqlitePath } from './url-specs.js';
