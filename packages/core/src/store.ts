// '@permafrost/core/store': what a storage backend implements and the helpers it uses. A store is
// correct when it passes @permafrost/store-conformance; docs/writing-a-store.md walks through it.

export { ScopeGate } from './adapters/shared/async-scope.js';
// Helpers: one object serving several roles, transaction scopes, rules every store applies the same way
export {
  conversationRoles,
  type GovernanceRoles,
  governanceRoles,
} from './adapters/shared/store-roles.js';
// Registering a backend for a storage URL scheme (`createMemory({ storage: '<scheme>://…' })`)
export { registerStoreFactory } from './composition/store-registry.js';
export { cosine } from './math/vector-math.js';
export { channelsOfSources } from './model/audience.js';
export { foldEntityUpserts, mergeEntity, newEntity } from './model/entity-rules.js';
// The plans core computes and a store applies in one transaction (docs/writing-a-store.md)
export type { ImportPlan, PurgePlan } from './model/governance-plans.js';
export { type RelationRef, relationRefKey, relationRefOf } from './model/graph.js';
export { SERVER_KEY } from './model/message.js';
export { compareReactionRefs, reactionRefKey } from './model/reaction.js';
export {
  MAX_EVIDENCE,
  newRelation,
  reinforceRelation,
  relationBaseWeight,
} from './model/relation-rules.js';
// The ports
export type { ActiveMode, ActiveModeStore } from './ports/active-mode-store.js';
export type { AliasStore } from './ports/alias-store.js';
export type { BudgetStore } from './ports/budget-store.js';
export type { ConsentStore } from './ports/consent-store.js';
export type {
  ChannelStats,
  ConversationStore,
  MessageListQuery,
  MessagePosition,
  MessageTextHit,
  MessageTextSearchOptions,
  MessageWindow,
  WindowAnchor,
} from './ports/conversation-store.js';
export type { CursorStore } from './ports/cursor-store.js';
export type { DigestStore } from './ports/digest-store.js';
export type { Erasure, ErasureInput, ErasureLog } from './ports/erasure-log.js';
export type {
  FactFilter,
  FactOrder,
  FactPageOptions,
  FactStore,
  FactValidity,
  ListFactsOptions,
  NormalizedTextKey,
  TextHit,
  UpdateFactOptions,
} from './ports/fact-store.js';
export type {
  EntityUpsert,
  GraphStore,
  GraphWrites,
  LinksForNodesOptions,
  RelationUpsert,
} from './ports/graph-store.js';
export type { GuildAdminStore } from './ports/guild-admin-store.js';
export type {
  ClaimRequest,
  ClaimResult,
  CompleteOptions,
  DueKeysQuery,
  EnqueueOptions,
  EnqueueOutcome,
  FailRequest,
  FailResult,
  IngestQueue,
  QueueCounts,
} from './ports/ingest-queue.js';
export {
  defaultCapabilities,
  type MemoryStore,
  type StoreCapabilities,
  type StoreFactory,
  type StoreFactoryOptions,
} from './ports/memory-store.js';
export type { MetaStore } from './ports/meta-store.js';
// Bases to extend: a method a port gains later comes with a default, so a store keeps compiling
export {
  ActiveModeStoreBase,
  AliasStoreBase,
  BudgetStoreBase,
  ConsentStoreBase,
  ConversationRolesBase,
  ConversationStoreBase,
  CursorStoreBase,
  DigestStoreBase,
  ErasureLogBase,
  FactStoreBase,
  GovernanceRolesBase,
  GraphStoreBase,
  GuildAdminStoreBase,
  IngestQueueBase,
  MetaStoreBase,
  ReactionStoreBase,
  ReplyClaimStoreBase,
  VectorIndexBase,
} from './ports/port-bases.js';
export type { ReactionListQuery, ReactionStore } from './ports/reaction-store.js';
export type { ReplyClaimStore } from './ports/reply-claim-store.js';
export type { VectorHit, VectorIndex, VectorItem, VectorKind, VectorQuery } from './ports/vector-index.js';
export { indexTerms, normalizeText, queryTerms } from './text/analyze.js';
export {
  Bm25Corpus,
  type Bm25Counts,
  type Bm25Doc,
  type Bm25Search,
  bm25FullMatchScore,
  bm25Idf,
  rankBm25,
  searchBm25,
  searchBm25In,
} from './text/bm25.js';
