/**
 * Every closed set of values is an `as const` object plus a union type of its values.
 * Open sets (RelationVerb, MeterPurpose) list known values and accept other strings.
 */
type ValueOf<T> = T[keyof T];

export const ObserveStatus = { ACCEPTED: 'accepted', IGNORED: 'ignored', REJECTED: 'rejected' } as const;
export type ObserveStatus = ValueOf<typeof ObserveStatus>;

export const IgnoreReason = {
  BOT_AUTHOR: 'bot_author',
  OPTED_OUT: 'opted_out',
  EMPTY_CONTENT: 'empty_content',
  IGNORED_PATTERN: 'ignored_pattern',
  DUPLICATE: 'duplicate',
  IGNORED_GUILD: 'ignored_guild',
  /** A reaction to a message that is not stored (never observed, deleted, or a session entry). */
  UNKNOWN_MESSAGE: 'unknown_message',
} as const;
export type IgnoreReason = ValueOf<typeof IgnoreReason>;

export const RejectReason = {
  QUEUE_OVER_CAPACITY: 'queue_over_capacity',
  /** This member sent more than its share (`observe.memberBurst`, `observe.memberMessagesPerMinute`). */
  MEMBER_OVER_RATE: 'member_over_rate',
  STORAGE_UNAVAILABLE: 'storage_unavailable',
  CLOSED: 'closed',
} as const;
export type RejectReason = ValueOf<typeof RejectReason>;

export const MemoryTier = { SHORT: 'short', MID: 'mid', LONG: 'long', CORE: 'core' } as const;
export type MemoryTier = ValueOf<typeof MemoryTier>;

/** Prune priority: lower tiers are pruned first. */
export const tierRank: Readonly<Record<MemoryTier, number>> = { short: 0, mid: 1, long: 2, core: 3 };

export const FactCategory = {
  PERSONAL: 'personal',
  PREFERENCES: 'preferences',
  INTERESTS: 'interests',
  PROFESSIONAL: 'professional',
  RELATIONSHIPS: 'relationships',
  GOALS: 'goals',
  EXPERIENCES: 'experiences',
  PERSONALITY: 'personality',
  CULTURE: 'culture',
  RULES: 'rules',
  EVENTS: 'events',
  GENERAL: 'general',
} as const;
export type FactCategory = ValueOf<typeof FactCategory>;

export const AttributionType = {
  SELF: 'self',
  THIRD_PARTY: 'third_party',
  MANUAL: 'manual',
  INFERRED: 'inferred',
  IMPORTED: 'imported',
} as const;
export type AttributionType = ValueOf<typeof AttributionType>;

export const FactScope = { USER: 'user', SERVER: 'server' } as const;
export type FactScope = ValueOf<typeof FactScope>;

export const FactHistoryKind = {
  CREATED: 'created',
  REINFORCED: 'reinforced',
  UPDATED: 'updated',
  SUPERSEDED: 'superseded',
  INVALIDATED: 'invalidated',
  EXPIRED: 'expired',
  FORGOTTEN: 'forgotten',
  PRUNED: 'pruned',
  REINSTATED: 'reinstated',
} as const;
export type FactHistoryKind = ValueOf<typeof FactHistoryKind>;

export const SourceRole = { PRIMARY: 'primary', SUPPORTING: 'supporting' } as const;
export type SourceRole = ValueOf<typeof SourceRole>;

export const NodeType = { USER: 'user', ENTITY: 'entity' } as const;
export type NodeType = ValueOf<typeof NodeType>;

export const EdgeKind = {
  SUBJECT_OF: 'subject_of',
  SPEAKER_OF: 'speaker_of',
  ABOUT_USER: 'about_user',
  MENTIONED_WITH: 'mentioned_with',
  ABOUT_ENTITY: 'about_entity',
} as const;
export type EdgeKind = ValueOf<typeof EdgeKind>;

export const Polarity = { POSITIVE: 'positive', NEGATIVE: 'negative', NEUTRAL: 'neutral' } as const;
export type Polarity = ValueOf<typeof Polarity>;

export const RelationVerb = {
  LIKES: 'likes',
  LOVES: 'loves',
  ENJOYS: 'enjoys',
  PREFERS: 'prefers',
  FAN_OF: 'fan_of',
  FRIENDS_WITH: 'friends_with',
  SUPPORTS: 'supports',
  ADMIRES: 'admires',
  COLLABORATES_WITH: 'collaborates_with',
  TEAMMATE_OF: 'teammate_of',
  DISLIKES: 'dislikes',
  HATES: 'hates',
  CALLED_OUT: 'called_out',
  ARGUES_WITH: 'argues_with',
  DISTRUSTS: 'distrusts',
  AVOIDS: 'avoids',
  QUIT: 'quit',
  KNOWS: 'knows',
  LIVES_IN: 'lives_in',
  WORKS_AT: 'works_at',
  STUDIES: 'studies',
  OWNS: 'owns',
  PLAYS: 'plays',
  MEMBER_OF: 'member_of',
} as const;
/** Open vocabulary: unknown verbs are accepted and read as neutral. */
export type RelationVerb = ValueOf<typeof RelationVerb> | (string & {});

export const EntityKind = {
  PERSON: 'person',
  PLACE: 'place',
  ORG: 'org',
  PRODUCT: 'product',
  ACTIVITY: 'activity',
  EVENT: 'event',
  CONCEPT: 'concept',
} as const;
export type EntityKind = ValueOf<typeof EntityKind>;

export const AliasSource = {
  DISCORD_USERNAME: 'discord_username',
  SUBJECT_USERNAME: 'subject_username',
  REAL_NAME: 'real_name',
  DISPLAY_NAME: 'display_name',
  MANUAL: 'manual',
  MENTION: 'mention',
  BACKFILL: 'backfill',
  ENTITY_TAG: 'entity_tag',
} as const;
export type AliasSource = ValueOf<typeof AliasSource>;

/** Rank (priority among sources) and base weight of each alias source. */
export const aliasSourceRank: Readonly<Record<AliasSource, { rank: number; weight: number }>> = {
  discord_username: { rank: 100, weight: 1.0 },
  subject_username: { rank: 95, weight: 0.95 },
  real_name: { rank: 85, weight: 0.85 },
  manual: { rank: 80, weight: 0.8 },
  display_name: { rank: 70, weight: 0.7 },
  mention: { rank: 60, weight: 0.6 },
  backfill: { rank: 50, weight: 0.5 },
  entity_tag: { rank: 40, weight: 0.4 },
};

export const Scope = { SUBJECTS: 'subjects', GUILD: 'guild', SERVER: 'server' } as const;
export type Scope = ValueOf<typeof Scope>;

export const ChannelName = {
  VECTOR: 'vector',
  KEYWORD: 'keyword',
  LINKS: 'links',
  BASELINE: 'baseline',
  ENTITY: 'entity',
  GRAPH_HOP: 'graph_hop',
  PAIR: 'pair',
  ENTITY_HINT: 'entity_hint',
} as const;
export type ChannelName = ValueOf<typeof ChannelName>;

export const RecallWarning = {
  IDENTITY_AMBIGUOUS: 'identity_ambiguous',
  SUBJECT_UNRESOLVED: 'subject_unresolved',
  BUDGET_TRIMMED: 'budget_trimmed',
  DEGRADED_CHANNEL: 'degraded_channel',
  RERANKER_FAILED: 'reranker_failed',
  LONG_TERM_TIMEOUT: 'long_term_timeout',
  LONG_TERM_FAILED: 'long_term_failed',
  STORE_UNAVAILABLE: 'store_unavailable',
  /** The query or input object did not validate; nothing was recalled. */
  QUERY_INVALID: 'query_invalid',
  /** The read had no audience and `access.requireAudience` is on: only channel-free facts were read. */
  AUDIENCE_REQUIRED: 'audience_required',
} as const;
export type RecallWarning = ValueOf<typeof RecallWarning>;

export const HealthStatus = { OK: 'ok', DEGRADED: 'degraded', DOWN: 'down' } as const;
export type HealthStatus = ValueOf<typeof HealthStatus>;

export const BudgetStep = {
  NONE: 'none',
  SKIP_RECONCILE: 'skip_reconcile',
  SKIP_EXTRACTION: 'skip_extraction',
} as const;
export type BudgetStep = ValueOf<typeof BudgetStep>;

export const MeterPurpose = {
  EXTRACTION: 'extraction',
  REPAIR: 'repair',
  RECONCILE: 'reconcile',
  SUMMARIZE: 'summarize',
  CLASSIFY_COMMAND: 'classify_command',
  EMBEDDING: 'embedding',
  GENERAL: 'general',
} as const;
/** Open set: bot authors may meter their own purposes. */
export type MeterPurpose = ValueOf<typeof MeterPurpose> | (string & {});

export const CommandAction = {
  REMEMBER: 'remember',
  FORGET: 'forget',
  UPDATE: 'update',
  QUERY: 'query',
  NONE: 'none',
} as const;
export type CommandAction = ValueOf<typeof CommandAction>;

export const MessageStatus = {
  PENDING: 'pending',
  CLAIMED: 'claimed',
  PROCESSED: 'processed',
  DEAD: 'dead',
} as const;
export type MessageStatus = ValueOf<typeof MessageStatus>;

/** Kind of row in the message table: chat observed from members, the bot's own replies, or session entries. */
export const MessageKind = { CHAT: 'chat', REPLY: 'reply', SESSION: 'session' } as const;
export type MessageKind = ValueOf<typeof MessageKind>;
