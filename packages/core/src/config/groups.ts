import { z } from 'zod';

// The groups of the configuration (observe, batching, workers, …): each key with its default and
// bounds. docs/configuration.md documents every key (a test checks it).

export const int = (min: number, max: number, def: number) => z.number().int().min(min).max(max).default(def);
const num = (min: number, max: number, def: number) => z.number().min(min).max(max).default(def);
const fraction = (def: number) => num(0, 1, def);

export const observeGroup = z
  .object({
    /** Shorter (trimmed) content is ignored as empty_content. */
    minMessageChars: int(1, 1000, 3),
    /** Regular expressions (source strings); a match ignores the message as ignored_pattern. */
    ignorePatterns: z.array(z.string().min(1).max(500)).max(100).default([]),
    /** Pending messages per guild before observe rejects with queue_over_capacity. */
    maxQueueDepthPerGuild: int(1, 10_000_000, 10_000),
    /**
     * Messages one member may send at once (per process) before member_over_rate; null: a
     * quarter of maxQueueDepthPerGuild, so one member never fills the guild queue.
     */
    memberBurst: z.number().int().min(1).max(10_000_000).nullable().default(null),
    /** A member's sustained share: tokens refilled per minute. */
    memberMessagesPerMinute: int(1, 1_000_000, 60),
    /** Observed names are registered as a member's aliases only up to this many. */
    maxAliasesPerMember: int(1, 1000, 20),
  })
  .strict();

export const batchingGroup = z
  .object({
    batchSizeMessages: int(1, 200, 10),
    /**
     * Messages one extraction call may carry: due batches of several members of a guild share a
     * call up to this many. At or below batchSizeMessages every member's batch gets its own call.
     */
    maxMessagesPerCall: int(1, 500, 40),
    maxAgeSeconds: int(1, 86_400, 300),
    leaseSeconds: int(5, 3600, 120),
    /**
     * A held lease is renewed this often; one not renewed for 3 heartbeats is a dead process's
     * and is reclaimed without waiting for the whole lease.
     */
    heartbeatSeconds: int(1, 600, 5),
    /** Messages the community (server) pass looks at per guild. */
    serverWindowMessages: int(5, 1000, 100),
  })
  .strict();

export const workersGroup = z
  .object({
    enabled: z.boolean().default(true),
    count: int(1, 32, 2),
    pollIntervalMs: int(10, 60_000, 1000),
    maxAttempts: int(1, 20, 3),
    backoffBaseSeconds: num(0, 3600, 5),
  })
  .strict();

export const extractionGroup = z
  .object({
    noiseGate: z.boolean().default(true),
    minConfidence: fraction(0.55),
    hearsayMinConfidence: fraction(0.75),
    maxCandidatesPerBatch: int(1, 50, 12),
    nearDuplicateThreshold: num(0.5, 1, 0.96),
    collisionThreshold: num(0.3, 1, 0.85),
    collisionFloor: num(0, 1, 0.35),
    /** Regenerate a subject's digest after this many new facts (0 disables digests). */
    digestEveryFacts: int(0, 1000, 5),
    digestSanityThreshold: fraction(0.55),
    maxTokens: int(64, 32_000, 1800),
  })
  .strict();

export const lifecycleGroup = z
  .object({
    shortTermDays: int(1, 3650, 7),
    midTermDays: int(1, 3650, 45),
    longTermDays: int(1, 3650, 180),
    decayStabilityDays: num(0.1, 3650, 7),
    forgetRetentionFloor: fraction(0.05),
    maxFactsPerUser: int(10, 100_000, 300),
    maxServerFacts: int(10, 100_000, 500),
    maintenanceIntervalSeconds: int(1, 86_400 * 7, 3600),
  })
  .strict();

/**
 * Relative weights of the fusion components (recall and message search). The score is their
 * weighted mean over the components that apply to the query: `entity` only when the query names
 * members or entities, `temporal` only when it names a date, `strength` only for facts. Defaults
 * were measured on LoCoMo with the hashing embedder (bench/results/locomo.md): scaled
 * BM25 leads because the hashing "semantic" channel is itself a weaker lexical signal; with a
 * sentence-embedding model raise `semantic` (e.g. 0.45). Reciprocal rank stays in the score so
 * facts found only by structural channels (links, baseline, pairs, graph) still rank.
 */
const weights = z
  .object({
    semantic: fraction(0.3),
    lexical: fraction(0.45),
    entity: fraction(0.1),
    strength: fraction(0.05),
    rrf: fraction(0.05),
    temporal: fraction(0.15),
  })
  .strict();

/** The largest `retrieval.channelLimit` and `retrieval.poolSize` (also the caps of recall/candidate-depth.ts). */
export const CHANNEL_LIMIT_MAX = 500;
export const POOL_SIZE_MAX = 1000;

export const retrievalGroup = z
  .object({
    topK: int(1, 200, 8),
    maxPerSubject: int(1, 200, 4),
    serverTopK: int(0, 50, 3),
    channelLimit: int(5, CHANNEL_LIMIT_MAX, 50),
    /**
     * Recall: each channel returns at least this many candidates per requested result (topK), and
     * the pool grows in proportion (see recall/candidate-depth.ts); 0 keeps channelLimit and
     * poolSize for every topK. Only long result lists go deeper: with the default topK (8) the
     * depth stays at channelLimit.
     */
    depthPerResult: int(0, 50, 6),
    rrfK: int(1, 1000, 60),
    /**
     * Recall and message search: keyword scores are divided by the larger of the query's best
     * score and this share of the score a full match of the query would get (a document holding
     * every query term once, as the store reports it; see lexical-scale.ts), so a query whose rare
     * terms match nothing does not lift partial matches to 1. 0: divided by the best score only.
     */
    lexicalFloor: fraction(0.3),
    poolSize: int(10, POOL_SIZE_MAX, 100),
    weights: weights.default(weights.parse({})),
    hopDepth: int(1, 2, 2),
    fanOut: int(1, 200, 24),
    rerankPoolSize: int(1, 200, 32),
    rerankTimeoutMs: int(10, 60_000, 1500),
    reinforceOnRecall: z.boolean().default(false),
    minScore: fraction(0),
    citationMinScore: fraction(0.55),
    defaultTokenBudget: int(64, 200_000, 2400),
    /**
     * Message search: share of an adjacent message's score a message receives (neighbour
     * smoothing; the turns of an exchange share context, while one author's consecutive messages
     * do not lift each other). Each further step multiplies by this again. 0 disables smoothing.
     */
    neighborWeight: fraction(0.5),
    /** Message search: how many messages on each side smoothing looks at. */
    neighborWindow: int(0, 5, 2),
    /**
     * Messages further apart than this are not neighbours (a new conversation); also bounds which
     * facts count as said in the same conversation.
     */
    neighborMaxGapMinutes: int(1, 10_080, 60),
    /**
     * Recall: how far a fact is lifted towards the best score among facts said in the same
     * conversation (same channel, sources within neighborMaxGapMinutes):
     * score = fused + w / (1 + w) × max(0, best − fused). 0 disables.
     */
    factContextWeight: fraction(0.5),
    /**
     * Message search and recall: weight of the phrase match (the share of the query's adjacent
     * term pairs found next to each other in the message or fact) next to the fused score:
     * (fused + w × phrase) / (1 + w). Recall applies it to queries of two terms or more and
     * leaves other queries' scores as fused. 0 disables.
     */
    phraseWeight: fraction(0.2),
    /**
     * Message search: how much a message rises with the conversation it belongs to (same channel,
     * within neighborMaxGapMinutes; scored by its two best messages, relative to the best
     * conversation): (score + w × share) / (1 + w). 0 disables.
     */
    conversationWeight: fraction(0.04),
    /**
     * Recall and message search: the scale of the semantic component. 'cosine': the raw cosine.
     * 'relative': min-max normalised over the query's vector hits (best 1, worst 0), like BM25
     * is divided by the query's best, so a sentence-embedding model's narrow cosine band still
     * separates its hits. 'auto': relative, except for a lexical embedder (the built-in hashing
     * one), whose cosine is a weaker keyword signal and stays raw.
     */
    semanticScale: z.enum(['auto', 'cosine', 'relative']).default('auto'),
  })
  .strict();

export const budgetsGroup = z
  .object({
    guildDailyPromptTokens: z.number().int().min(1).nullable().default(null),
    guildMonthlyPromptTokens: z.number().int().min(1).nullable().default(null),
    warnFraction: num(0.1, 1, 0.8),
    /**
     * Extraction batches one member's messages may take per hour (per process; also the burst):
     * past it, that member's batches wait and everyone else's go first. null: the member's
     * observe burst in batches (memberBurst / batchSizeMessages).
     */
    memberBatchesPerHour: z.number().int().min(1).max(1_000_000).nullable().default(null),
    /** USD per million tokens by model-name substring, used when the provider reports no cost. */
    prices: z
      .record(
        z.string().min(1),
        z.object({ prompt: z.number().min(0), completion: z.number().min(0) }).strict(),
      )
      .default({}),
  })
  .strict();

export const privacyGroup = z
  .object({
    /** Off: messages are kept as a hash only and never extracted. */
    storeRawMessages: z.boolean().default(true),
  })
  .strict();

export const accessGroup = z
  .object({
    /**
     * A read without an audience (`audience: { channelId }`) shows only channel-free facts and
     * warns `audience_required`. Off: reads without an audience are guild-wide (benchmarks, tools
     * that search a whole history on purpose).
     */
    requireAudience: z.boolean().default(true),
    /** Channels whose facts and messages any audience of the guild may see (core's default policy). */
    publicChannelIds: z.array(z.string().min(1).max(128)).max(1000).default([]),
    /** Facts with no channel (manual facts, admin-set server facts) are visible to every audience. */
    channelFreeVisible: z.boolean().default(true),
    /** An audience policy that has not answered by then is treated as denying all but the audience's own channel. */
    policyTimeoutMs: int(1, 60_000, 1000),
  })
  .strict();

export const conversationGroup = z
  .object({
    /** Messages (any status but pending) older than this are deleted by maintenance. */
    retentionDays: int(1, 3650, 30),
    /** Per channel, the oldest messages beyond this count are deleted by maintenance. */
    maxMessagesPerChannel: int(10, 10_000_000, 10_000),
    /** Session-style histories keep the last N entries. */
    maxSessionEntries: int(1, 10_000, 50),
    /**
     * Owner of `activeModes` rows: a stable name, so modes survive restarts and every process of
     * one bot sees them. Bots that share one database each set their own.
     */
    modesOwner: z.string().min(1).max(128).default('default'),
  })
  .strict();

export const contextGroup = z
  .object({
    /** Messages of the hot tier (last N of the channel). */
    hotMessages: int(0, 200, 8),
    /** Deadline of the long-term part; on timeout the hot tier is returned with a warning. */
    longTermTimeoutMs: int(1, 60_000, 150),
    /** Long-term results are cached per (guild, asker, text) this long. */
    cacheTtlSeconds: int(0, 86_400, 300),
    /** Facts scoring below this are not injected by context(). */
    minScore: fraction(0.05),
  })
  .strict();
