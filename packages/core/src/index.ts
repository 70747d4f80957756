// The public API of @permafrost/core. docs/api.md names every export of this file and a test
// (tests/exports) checks that the two agree. Store authors import from '@permafrost/core/store';
// the building blocks the first-party packages share are in '@permafrost/core/internal' (no
// stability promise); test helpers are in '@permafrost/core/testing'.

// Audiences: who may see what was learned where
export { sameChannelPolicy } from './access/same-channel-policy.js';
// Adapters you can construct and pass as overrides
export {
  type CachedEmbedder,
  type CachedEmbedderOptions,
  cacheEmbedder,
  DEFAULT_EMBEDDING_CACHE_BYTES,
} from './adapters/embedding/cached-embedder.js';
export { createHashingEmbedder, type HashingEmbedderOptions } from './adapters/embedding/hashing-embedder.js';
export { createHeuristicLlm } from './adapters/heuristic/heuristic-llm.js';
export { createInMemoryStore } from './adapters/in-memory/in-memory-store.js';
export {
  createOpenAiChatModel,
  createOpenAiChatModels,
  type OpenAiChatConfig,
  type OpenAiChatModelOptions,
} from './adapters/llm/openai-chat-model.js';
export {
  createOpenAiEmbedder,
  type OpenAiEmbedderOptions,
  type OpenAiEmbeddingsConfig,
} from './adapters/llm/openai-embedder.js';
export { systemClock } from './adapters/system/system-clock.js';
export { createUlidIdGen } from './adapters/system/ulid-id-gen.js';
// Configuration
export { type ParseConfigOptions, parseConfig } from './config/parse-config.js';
export type {
  EmbeddingsConfig,
  LlmConfig,
  LlmEndpointConfig,
  MemoryConfig,
  MemoryConfigInput,
} from './config/schema.js';
export { DEFAULT_STORAGE, type StorageSpec } from './config/url-specs.js';
export { jumpLink } from './context/jump-link.js';
export { ContextMode } from './conversation/context-service.js';
// Errors
export { ErrorCode } from './errors/error-codes.js';
export { MemoryError, type MemoryErrorOptions, type MemoryIssue } from './errors/memory-error.js';
export type {
  ExistingFactLine,
  ExtractionInput,
  ExtractionMessage,
  ExtractionOutput,
  ProposedEntity,
  ProposedFact,
  ProposedRelation,
  RosterEntry,
} from './extraction/extraction-contract.js';
export type {
  ClassifyCommandInput,
  ReconcileCollision,
  ReconcileDecision,
  ReconcileInput,
  ReconcileOutput,
  SummarizeInput,
} from './extraction/task-contracts.js';
// The memory
export type * from './facade/facade-types.js';
export { createMemory, Memory } from './facade/memory.js';
// Domain model
export {
  type BackupManifest,
  EXPORT_FORMAT,
  EXPORT_VERSION,
  type GuildExport,
  type GuildExportInput,
  type GuildSnapshot,
  type GuildStats,
  type ImportCounts,
  type OptOut,
  type PurgeReport,
} from './model/admin.js';
export type { Audience, AudienceInput, SourceChannel } from './model/audience.js';
export {
  AliasSource,
  AttributionType,
  BudgetStep,
  ChannelName,
  CommandAction,
  EdgeKind,
  EntityKind,
  FactCategory,
  FactHistoryKind,
  FactScope,
  HealthStatus,
  IgnoreReason,
  MemoryTier,
  MessageKind,
  MessageStatus,
  MeterPurpose,
  NodeType,
  ObserveStatus,
  Polarity,
  RecallWarning,
  RejectReason,
  RelationVerb,
  Scope,
  SourceRole,
} from './model/enums.js';
export {
  type Attribution,
  type Fact,
  type FactHistoryEntry,
  type FactPatch,
  isActive,
  isValidAt,
  type Page,
  type SourceRef,
} from './model/fact.js';
export type { Alias, Digest, Entity, Link, NodeRef, Relation } from './model/graph.js';
export type { BatchKey, MessageEvent, MessageEventInput, StoredMessage } from './model/message.js';
export type {
  ClearReactionsInput,
  Reaction,
  ReactionCount,
  ReactionEventInput,
  ReactionRef,
} from './model/reaction.js';
// Events
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
export type { AudienceGate, AudiencePolicy } from './ports/audience-policy.js';
// Ports for your own adapters (models, embedders, rerankers, logging, time); stores: '@permafrost/core/store'
export type {
  ChatLLM,
  ChatMessage,
  ChatRequest,
  ChatResponse,
  ChatTask,
  JsonSchema,
  ResponseFormat,
} from './ports/chat-llm.js';
export type { Clock, IdGen } from './ports/clock.js';
export type { Embedder } from './ports/embedder.js';
export type { LogEvent, Logger } from './ports/logger.js';
export type { MemoryStore, StoreCapabilities } from './ports/memory-store.js';
export type { Meter, MeterRecord, MeterSnapshot, PurposeTotals } from './ports/meter.js';
export type { Reranker } from './ports/reranker.js';
