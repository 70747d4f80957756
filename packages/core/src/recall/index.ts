// Recall side of @permafrost/core: hybrid recall, message search, fact search, prompt context,
// citations, identity resolution and graph queries.
export { applyCitations, buildCitation, citationLink, stripCitationTags } from '../context/citations.js';
export { cite, MAX_CLAIMS, MAX_SOURCES_PER_CLAIM, segmentClaims } from '../context/cite.js';
export {
  type BlockSection,
  type BuiltBlock,
  buildInjectionBlock,
  CHARS_PER_TOKEN,
} from '../context/injection-block.js';
export { jumpLink } from '../context/jump-link.js';
export { discoveryPairs } from '../context/participants.js';
export {
  createPromptContextService,
  type PromptContextDeps,
  type PromptContextInput,
  type PromptContextService,
  promptContextSchema,
} from '../context/prompt-context-service.js';
export type {
  Citation,
  CitedClaim,
  CitedReply,
  PromptContext,
  TokenUsage,
} from '../context/prompt-context-types.js';
export { findEntity } from '../graph/entity-lookup.js';
export {
  createGraphService,
  type GraphDeps,
  type GraphService,
} from '../graph/graph-service.js';
export type {
  EntityUsers,
  NeighborInfo,
  SharedEntity,
  SimilarUser,
  StanceSummary,
} from '../graph/graph-types.js';
export { type ReachedNode, type RelationEdge, walkGraph } from '../graph/graph-walk.js';
export { entityProfile, profileSimilarity } from '../graph/similar-users.js';
export {
  createIdentityService,
  type IdentityDeps,
  type IdentityService,
  type RegisterAliasInput,
  resolveIdentifier,
} from '../identity/identity-service.js';
export {
  AMBIGUITY_RATIO,
  decideAliases,
  MIN_PREFIX_CHARS,
  type Resolution,
  type ResolutionBasis,
  type ResolvedCandidate,
} from '../identity/resolution.js';
export { reconcileTwins } from '../identity/twins.js';
export type { ChannelHit, ChannelList, NamedTargets } from './channel-types.js';
export {
  type FactSearchInput,
  factSearchSchema,
  type ListForSubjectInput,
  listForSubject,
  listForSubjectSchema,
  searchFacts,
} from './fact-search.js';
export { type ActiveComponents, type FusionWeights, fusedScore } from './fusion.js';
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
export { RecallSession } from './recall-session.js';
export type {
  RecallDeps,
  RecallResult,
  RecallService,
  ScoreComponents,
  ScoredFact,
} from './recall-types.js';
export { retention, strengthSignal } from './strength.js';
export { type TimeWindow, temporalMatch, timeWindows } from './time-expressions.js';
