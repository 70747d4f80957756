// Input and output types of the Memory facade that live next to their services, re-exported so
// applications import them from the package root (`import type { PromptContext } from '@permafrost/core'`).
export type { PromptContextInput } from '../context/prompt-context-service.js';
export type {
  Citation,
  CitedClaim,
  CitedReply,
  PromptContext,
  TokenUsage,
} from '../context/prompt-context-types.js';
export type { ContextInput, TwoTierContext } from '../conversation/context-service.js';
export type { MaintenanceReport } from '../lifecycle/maintenance.js';
export type { FactSearchInput, ListForSubjectInput } from '../recall/fact-search.js';
export type { RecallQueryInput } from '../recall/recall-query.js';
export type { RecallResult, ScoreComponents, ScoredFact } from '../recall/recall-types.js';
