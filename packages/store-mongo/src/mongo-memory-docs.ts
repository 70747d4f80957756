import type { Binary } from 'mongodb';
import type { GuardedDoc } from './guard-types.js';

// Stored shapes of memory itself: facts and their history, graph links, relations and entities,
// aliases, vectors. Every document has a string `_id` built by `docKey` from its natural key.
// User-controlled strings are only ever values, never field names.

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
  /** Absent on documents written before facts kept their channels (read as their sources' channels). */
  channels?: { channelId: string; parentId: string | null }[];
  relatedUserIds: string[];
  entitySlugs: string[];
  expiresAt: Date | null;
  version: number;
  /** Keyword index: core's `indexTerms(text)`, kept in sync on every text change. */
  terms: string[];
  termCount: number;
  /** `subjectId`, or SERVER_SCOPE for server facts (absent on facts written before it existed). */
  sk?: string;
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
  /**
   * `users[].userId` at the top level, where a member's aliases are looked up (FerretDB pushes
   * only top-level equalities down). Written with `users` (`withUsers`); setup gives documents
   * written before it theirs.
   */
  userIds?: string[];
}

/** Entity slugs having one alias: `findEntitiesByAlias` reads these by `_id`. */
export interface EntityAliasDoc extends GuardedDoc {
  guildId: string;
  alias: string;
  slugs: string[];
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
