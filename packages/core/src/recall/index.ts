export type { ChannelHit, ChannelList, NamedTargets } from './channel-types.js';
export { type FusionWeights, fusedScore } from './fusion.js';
export {
  createMessageSearch,
  type MessageScoreComponents,
  type MessageSearch,
  type MessageSearchDeps,
  type MessageSearchInput,
  type MessageSearchResult,
  messageSearchSchema,
  type ScoredMessage,
} from './message-search.js';
export { type SmoothingOptions, smoothScores } from './neighbor-smoothing.js';
export {
  MAX_QUERY_CHARS,
  type RecallQuery,
  type RecallQueryInput,
  recallQuerySchema,
} from './recall-query.js';
export { createRecallService } from './recall-service.js';
export type {
  RecallDeps,
  RecallResult,
  RecallService,
  ScoreComponents,
  ScoredFact,
} from './recall-types.js';
export { retention, strengthSignal } from './strength.js';
