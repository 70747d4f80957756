export {
  type CachedEmbedder,
  type CachedEmbedderOptions,
  cacheEmbedder,
} from './adapters/embedding/cached-embedder.js';
export {
  createHashingEmbedder,
  type HashingEmbedderOptions,
  hashingVector,
} from './adapters/embedding/hashing-embedder.js';
export * from './adapters/heuristic/index.js';
export { createInMemoryStore, IN_MEMORY_CAPABILITIES } from './adapters/in-memory/in-memory-store.js';
export * from './adapters/llm/index.js';
export { ScopeGate } from './adapters/shared/async-scope.js';
export {
  conversationRoles,
  type GovernanceRoles,
  governanceRoles,
} from './adapters/shared/store-roles.js';
export { systemClock } from './adapters/system/system-clock.js';
export { createUlidIdGen } from './adapters/system/ulid-id-gen.js';
export {
  getStoreFactory,
  importOptional,
  registerStoreFactory,
  resolveStoreFactory,
} from './composition/store-registry.js';
export * from './config/index.js';
export * from './errors/index.js';
export * from './extraction/index.js';
export * from './facade/index.js';
export { importSnapshot } from './governance/guild-import.js';
export { type ImportBaseline, importCounts, planImport } from './governance/import-plan.js';
export { type PurgeRequest, purgeMember } from './governance/purge.js';
export { type PlannedPurge, planPurge } from './governance/purge-plan.js';
export { purgeReport } from './governance/purge-rules.js';
export * from './identity/index.js';
export { memberSharesOf } from './ingest/member-rate.js';
export {
  agedOut,
  type ConversationRetention,
  overCap,
  pruneConversation,
} from './lifecycle/conversation-retention.js';
export { FORGOTTEN_FACT_TEXT } from './lifecycle/forget-messages.js';
export { centroid, cosine, dot } from './math/vector-math.js';
export { mergeEntity, newEntity } from './model/entity-rules.js';
export * from './model/index.js';
export {
  effectiveRelationWeight,
  MAX_EVIDENCE,
  newRelation,
  normalizeVerb,
  polarityOf,
  reinforceRelation,
  relationBaseWeight,
} from './model/relation-rules.js';
export type {
  BatchCompleted,
  BudgetWarning,
  ComponentDegraded,
  ExtractionFailed,
  FactCommitted,
  FactSuperseded,
  MemoryEvents,
  MemoryEventType,
} from './observability/events.js';
export {
  type LatencySummary,
  MetricsRegistry,
  type MetricsSnapshot,
  renderPrometheus,
} from './observability/metrics.js';
export * from './ports/index.js';
export { Bm25Corpus, type Bm25Doc, rankBm25 } from './text/bm25.js';
export * from './text/index.js';
