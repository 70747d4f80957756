export { createInMemoryStore, IN_MEMORY_CAPABILITIES } from './adapters/in-memory/in-memory-store.js';
export { systemClock } from './adapters/system/system-clock.js';
export { createUlidIdGen } from './adapters/system/ulid-id-gen.js';
export * from './config/index.js';
export {
  type CachedEmbedder,
  type CachedEmbedderOptions,
  cacheEmbedder,
  DEFAULT_EMBEDDING_CACHE_BYTES,
} from './embedding/cached-embedder.js';
export {
  createHashingEmbedder,
  type HashingEmbedderOptions,
  hashingVector,
} from './embedding/hashing-embedder.js';
export { centroid, cosine, dot } from './embedding/vector-math.js';
export * from './errors/index.js';
export * from './extraction/index.js';
export {
  effectiveRelationWeight,
  MAX_EVIDENCE,
  newRelation,
  normalizeVerb,
  polarityOf,
  reinforceRelation,
  relationBaseWeight,
} from './graph/weights.js';
export * from './heuristic/index.js';
export * from './identity/index.js';
export { FORGOTTEN_FACT_TEXT } from './lifecycle/forget-messages.js';
export * from './llm/index.js';
export * from './memory/index.js';
export * from './model/index.js';
export * from './ports/index.js';
export { ScopeGate } from './runtime/async-scope.js';
export type {
  BatchCompleted,
  BudgetWarning,
  ComponentDegraded,
  ExtractionFailed,
  FactCommitted,
  FactSuperseded,
  MemoryEvents,
  MemoryEventType,
} from './runtime/events.js';
export { memberSharesOf } from './runtime/member-rate.js';
export {
  type CounterName,
  LATENCY_BUCKETS_SECONDS,
  type LatencyName,
  type LatencySummary,
  MetricsRegistry,
  type MetricsSnapshot,
} from './runtime/metrics.js';
export {
  getStoreFactory,
  importOptional,
  registerStoreFactory,
  resolveStoreFactory,
} from './runtime/store-registry.js';
export { Bm25Corpus, type Bm25Doc, rankBm25 } from './text/bm25.js';
export * from './text/index.js';
