export type { ActiveMode, ActiveModeStore } from './active-mode-store.js';
export type { AliasStore } from './alias-store.js';
export type { BudgetStore } from './budget-store.js';
export type {
  ChatLLM,
  ChatMessage,
  ChatRequest,
  ChatResponse,
  ChatTask,
  JsonSchema,
  ResponseFormat,
} from './chat-llm.js';
export type { Clock, IdGen } from './clock.js';
export type { ConsentStore } from './consent-store.js';
export type {
  ChannelStats,
  ConversationStore,
  MessageListQuery,
  MessagePosition,
  MessageTextHit,
} from './conversation-store.js';
export type { CursorStore } from './cursor-store.js';
export type { DigestStore } from './digest-store.js';
export type { Embedder } from './embedder.js';
export type { Erasure, ErasureInput, ErasureLog } from './erasure-log.js';
export type {
  FactFilter,
  FactOrder,
  FactPageOptions,
  FactStore,
  FactValidity,
  ListFactsOptions,
  TextHit,
  UpdateFactOptions,
} from './fact-store.js';
export type { EntityUpsert, GraphStore, LinksForNodesOptions, RelationUpsert } from './graph-store.js';
export type { GuildAdminStore } from './guild-admin-store.js';
export type {
  ClaimRequest,
  ClaimResult,
  DueKeysQuery,
  EnqueueOutcome,
  FailRequest,
  FailResult,
  IngestQueue,
  QueueCounts,
} from './ingest-queue.js';
export type { LogEvent, Logger } from './logger.js';
export {
  defaultCapabilities,
  type MemoryStore,
  type StoreCapabilities,
  type StoreFactory,
  type StoreFactoryOptions,
} from './memory-store.js';
export type { MetaStore } from './meta-store.js';
export type { Meter, MeterRecord, MeterSnapshot, PurposeTotals } from './meter.js';
export type { ReplyClaimStore } from './reply-claim-store.js';
export type { Reranker } from './reranker.js';
export type { VectorHit, VectorIndex, VectorItem, VectorKind, VectorQuery } from './vector-index.js';
