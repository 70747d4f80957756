// Input and output types of the Memory facade that live next to their services, re-exported so
// applications import them from the package root (`import type { PromptContext } from '@permafrost/core'`).
import type { createActiveModesApi, createClaimsApi } from '../conversation/coordination-api.js';

export type { AdminApi, UserExport } from '../api/admin-api.js';
export type { CommandClassification } from '../api/classify-command.js';
export type { CursorsApi } from '../api/cursors-api.js';
export type { FactsApi, RememberInput } from '../api/facts-api.js';
export type { FlushReport } from '../api/flush.js';
export type { ForgetApi, ForgetMessageInput, ForgetMessageReport } from '../api/forget-api.js';
export type { MemoryOverrides } from '../composition/overrides.js';
export type { PromptContextInput } from '../context/prompt-context-service.js';
export type {
  Citation,
  CitedClaim,
  CitedReply,
  PromptContext,
  TokenUsage,
} from '../context/prompt-context-types.js';
export type { ContextInput, TwoTierContext } from '../conversation/context-service.js';
export type { ConversationApi, SessionEntry } from '../conversation/conversation-api.js';
export type {
  ActivityPattern,
  InsightsApi,
  Preference,
  TopicTrend,
} from '../conversation/insights-api.js';
export type { ConversationMessage } from '../conversation/message-view.js';
export type { GraphService } from '../graph/graph-service.js';
export type {
  EntityUsers,
  NeighborInfo,
  RelationEdge,
  SharedEntity,
  SimilarUser,
  StanceSummary,
} from '../graph/graph-types.js';
export type { IdentityService, RegisterAliasInput } from '../identity/identity-service.js';
export type { Resolution, ResolutionBasis, ResolvedCandidate } from '../identity/resolution.js';
export type { ObserveReceipt } from '../ingest/observe-receipts.js';
export type { MaintenanceReport } from '../lifecycle/maintenance.js';
export type { FactSearchInput, ListForSubjectInput } from '../recall/fact-search.js';
export type {
  MessageScoreComponents,
  MessageSearchInput,
  MessageSearchResult,
  ScoredMessage,
} from '../recall/message-search.js';
export type { RecallQueryInput } from '../recall/recall-query.js';
export type { RecallResult, ScoreComponents, ScoredFact } from '../recall/recall-types.js';
export type { ComponentHealth, HealthReport, OpsApi, OpsMetrics } from './ops-api.js';

/** `memory.claims`: exactly one bot instance answers a message. */
export type ClaimsApi = ReturnType<typeof createClaimsApi>;
/** `memory.activeModes`: "active conversation" state that survives restarts. */
export type ActiveModesApi = ReturnType<typeof createActiveModesApi>;
