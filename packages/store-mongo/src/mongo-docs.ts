import type { Binary } from 'mongodb';

/**
 * Stored document shapes. Every document has a string `_id` built by `docKey` from its natural
 * key. Documents that are changed in place also carry `ep`, the version stamp the guard checks
 * (see doc-guard.ts). User-controlled strings are only ever values, never field names.
 */
export interface GuardedDoc {
  _id: string;
  ep: string;
}

export interface SourceDoc {
  messageId: string;
  channelId: string;
  authorId: string;
  authorName: string;
  snippet: string;
  url: string;
  role: string;
  createdAt: Date | null;
}

export interface FactDoc extends GuardedDoc {
  id: string;
  guildId: string;
  subjectId: string | null;
  text: string;
  normalizedText: string;
  category: string;
  confidence: number;
  tier: string;
  scope: string;
  attribution: { type: string; speakerId: string | null; speakerName: string | null; actorId: string | null };
  occurrences: number;
  strength: number;
  lastReinforcedAt: Date;
  createdAt: Date;
  updatedAt: Date;
  observedAt: Date;
  validFrom: Date;
  validUntil: Date | null;
  supersedesId: string | null;
  supersededById: string | null;
  sources: SourceDoc[];
  relatedUserIds: string[];
  entitySlugs: string[];
  expiresAt: Date | null;
  version: number;
  /** Keyword index: core's `indexTerms(text)`, kept in sync on every text change. */
  terms: string[];
  termCount: number;
  /** Derived: not superseded and no validUntil (indexed filter for "active"). */
  active: boolean;
}

export interface HistoryDoc {
  _id: string;
  guildId: string;
  factId: string;
  at: Date;
  kind: string;
  detail: string;
  previousText: string | null;
  actorId: string | null;
  version: number;
}

export interface LinkDoc {
  _id: string;
  guildId: string;
  factId: string;
  nodeType: string;
  nodeId: string;
  kind: string;
  createdAt: Date;
}

export interface RelationDoc extends GuardedDoc {
  /** Identity of this relation instance (stable across merges; names its ended copy). */
  rid: string;
  guildId: string;
  srcType: string;
  srcId: string;
  dstType: string;
  dstId: string;
  verb: string;
  polarity: string;
  weight: number;
  occurrences: number;
  confidence: number;
  evidenceFactIds: string[];
  validFrom: Date;
  validUntil: Date | null;
  updatedAt: Date;
}

export interface EntityDoc extends GuardedDoc {
  guildId: string;
  slug: string;
  name: string;
  kind: string;
  aliases: string[];
  factCount: number;
  linkedUserId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** One member known by an alias. */
export interface AliasEntry {
  userId: string;
  source: string;
  weight: number;
  updatedAt: Date;
}

/** Every member known by one normalized alias in a guild: exact lookups are one `_id` read. */
export interface AliasDoc extends GuardedDoc {
  guildId: string;
  alias: string;
  users: AliasEntry[];
}

/** Entity slugs having one alias: `findEntitiesByAlias` reads these by `_id`. */
export interface EntityAliasDoc extends GuardedDoc {
  guildId: string;
  alias: string;
  slugs: string[];
}

export interface OptOutDoc {
  _id: string;
  guildId: string;
  userId: string;
  at: Date;
}

export interface DigestDoc {
  _id: string;
  guildId: string;
  subjectId: string | null;
  text: string;
  generatedAt: Date;
  sourceFactCount: number;
}

export interface KeyValueDoc {
  _id: string;
  guildId: string | null;
  key: string;
  value: string;
}

export interface CounterDoc extends GuardedDoc {
  guildId: string;
  period: string;
  tokens: number;
}

export interface MessageDoc extends GuardedDoc {
  messageId: string;
  guildId: string;
  channelId: string;
  authorId: string;
  authorUsername: string;
  authorDisplayName: string;
  authorIsBot: boolean;
  content: string;
  contentTruncated: boolean;
  rawStored: boolean;
  createdAt: Date;
  mentionIds: string[];
  replyToMessageId: string | null;
  threadParentId: string | null;
  edited: boolean;
  /** Metadata as pairs: member-supplied keys are never used as field names. */
  metadata: { k: string; v: string }[] | null;
  kind: string;
  subjectKey: string;
  status: string;
  attempts: number;
  nextAttemptAt: Date | null;
  leaseOwner: string | null;
  leaseUntil: Date | null;
  processedAt: Date | null;
  terms: string[];
  termCount: number;
}

/** Queue state of one non-terminal row (pending, claimed or dead), inside its key's bucket. */
export interface QueueItem {
  /** messageId */
  id: string;
  /** createdAt of the message (batching order and age) */
  at: Date;
  st: string;
  /** attempts */
  n: number;
  next: Date | null;
  own: string | null;
  until: Date | null;
  /** Chat row with raw content: may be batched. */
  el: boolean;
  /** Wall-clock time the item was queued (to collect items whose row insert never happened). */
  ins: Date;
  /** Returned to pending after its claim expired: its owner may have completed it before dying. */
  rel?: boolean;
}

/** The queue of one (guild, batch key): every non-terminal row of the key (items encoded, see mongo-buckets.ts). */
export interface BucketDoc extends GuardedDoc {
  guildId: string;
  subjectKey: string;
  items: string[];
}

/** Terminal state of a row: written once when it is completed (or stored as processed). */
export interface OutcomeDoc {
  _id: string;
  guildId: string;
  messageId: string;
  createdAt: Date;
  processedAt: Date | null;
  attempts: number;
  next: Date | null;
  /** The completion that wrote it (owner + call nonce); absent for rows stored as processed. */
  by?: string;
}

/** A row being stored: exists from before its insert until its queue state is registered. */
export interface IntakeDoc {
  _id: string;
  guildId: string;
  subjectKey: string;
  at: Date;
  item: QueueItem | null;
  outcome: OutcomeDoc | null;
}

export interface LeaseDoc extends GuardedDoc {
  guildId: string;
  subjectKey: string;
  owner: string;
  until: Date;
}

export interface ReplyClaimDoc extends GuardedDoc {
  guildId: string;
  channelId: string;
  messageId: string;
  owner: string;
  until: Date;
}

export interface ModeDoc extends GuardedDoc {
  instanceId: string;
  guildId: string;
  channelId: string;
  mode: string;
  startedAt: Date;
  lastActiveAt: Date;
}

export interface VectorDoc extends GuardedDoc {
  guildId: string;
  id: string;
  subjectId: string | null;
  /** Scope key for filters: the subject, or NUL for server items (vector-search filters avoid null). */
  sk: string;
  active: boolean;
  dims: number;
  /** Float32 vector as BSON Binary subtype 9 (packed float32), bit-exact. */
  v: Binary;
}

/** Store-internal facts (schema version, vector dimensions); separate from user meta. */
export interface StoreMetaDoc {
  _id: string;
  value: number | string;
}

/** A version token: whoever inserts it may change the document version it names. */
export interface TokenDoc {
  _id: string;
  at: Date;
}

/** A guild's erasure generation counter (guarded read-modify-write). */
export interface ErasureCounterDoc extends GuardedDoc {
  guildId: string;
  generation: number;
}

/** One logged erasure: `_id` = docKey(guild, zero-padded generation). */
export interface ErasureDoc {
  _id: string;
  guildId: string;
  generation: number;
  userId: string | null;
  messageId: string | null;
  at: Date;
}
