import type { Collection, Db, IndexDescription } from 'mongodb';
import type {
  BucketDoc,
  IntakeDoc,
  LeaseDoc,
  MessageDoc,
  ModeDoc,
  OutcomeDoc,
  ReplyClaimDoc,
} from './mongo-conversation-docs.js';
import type {
  CounterDoc,
  DigestDoc,
  ErasureCounterDoc,
  ErasureDoc,
  KeyValueDoc,
  OptOutDoc,
  StoreMetaDoc,
} from './mongo-governance-docs.js';
import type {
  AliasDoc,
  EntityAliasDoc,
  EntityDoc,
  FactDoc,
  HistoryDoc,
  LinkDoc,
  RelationDoc,
  VectorDoc,
} from './mongo-memory-docs.js';
import type { ReactionsDoc } from './mongo-reaction-store.js';
import { nulFree } from './nul-free.js';
import type { TokenDoc } from './version-tokens.js';

export const SCHEMA_VERSION = 1;

export interface Collections {
  readonly facts: Collection<FactDoc>;
  readonly history: Collection<HistoryDoc>;
  readonly links: Collection<LinkDoc>;
  readonly relations: Collection<RelationDoc>;
  readonly entities: Collection<EntityDoc>;
  readonly aliases: Collection<AliasDoc>;
  readonly entityAliases: Collection<EntityAliasDoc>;
  readonly optOuts: Collection<OptOutDoc>;
  readonly digests: Collection<DigestDoc>;
  readonly cursors: Collection<KeyValueDoc>;
  readonly meta: Collection<KeyValueDoc>;
  readonly budgets: Collection<CounterDoc>;
  readonly messages: Collection<MessageDoc>;
  readonly buckets: Collection<BucketDoc>;
  readonly outcomes: Collection<OutcomeDoc>;
  readonly intake: Collection<IntakeDoc>;
  readonly leases: Collection<LeaseDoc>;
  readonly replyClaims: Collection<ReplyClaimDoc>;
  readonly modes: Collection<ModeDoc>;
  readonly factVectors: Collection<VectorDoc>;
  readonly messageVectors: Collection<VectorDoc>;
  readonly storeMeta: Collection<StoreMetaDoc>;
  readonly tokens: Collection<TokenDoc>;
  readonly erasureCounters: Collection<ErasureCounterDoc>;
  readonly erasures: Collection<ErasureDoc>;
  readonly reactions: Collection<ReactionsDoc>;
}

const NAMES: Readonly<Record<keyof Collections, string>> = {
  facts: 'facts',
  history: 'fact_history',
  links: 'links',
  relations: 'relations',
  entities: 'entities',
  aliases: 'aliases',
  entityAliases: 'entity_aliases',
  optOuts: 'opt_outs',
  digests: 'digests',
  cursors: 'cursors',
  meta: 'meta',
  budgets: 'token_budgets',
  messages: 'messages',
  buckets: 'queue_buckets',
  outcomes: 'queue_outcomes',
  intake: 'queue_intake',
  leases: 'batch_leases',
  replyClaims: 'reply_claims',
  modes: 'active_modes',
  factVectors: 'fact_vectors',
  messageVectors: 'message_vectors',
  storeMeta: 'store_meta',
  tokens: 'version_tokens',
  erasureCounters: 'erasure_generations',
  erasures: 'erasures',
  reactions: 'reactions',
};

/** The store's collections; every one stores NUL-free strings (nul-free.ts). */
export function collections(db: Db): Collections {
  const out: Record<string, Collection> = {};
  for (const [role, name] of Object.entries(NAMES)) out[role] = nulFree(db.collection(name));
  return out as unknown as Collections;
}

const GUILD_KEY = { guildId: 1, _id: 1 } as const;

/**
 * The shard key of every collection, for a sharded cluster (the store does not shard; an operator
 * runs `sh.shardCollection(ns, key)`). Guild data is ranged by guild: every `_id` starts with its
 * guild (`docKey(guildId, …)`), so one `_id` always lands on one shard and `_id` uniqueness holds
 * per shard. `version_tokens` is keyed by `_id`, which embeds the guarded document's `_id` (guild
 * first); `store_meta` (a few global documents) stays unsharded (null). See docs/stores.md.
 */
export const SHARD_KEYS: Readonly<Record<keyof Collections, Readonly<Record<string, 1>> | null>> = {
  facts: GUILD_KEY,
  history: GUILD_KEY,
  links: GUILD_KEY,
  relations: GUILD_KEY,
  entities: GUILD_KEY,
  aliases: GUILD_KEY,
  entityAliases: GUILD_KEY,
  optOuts: GUILD_KEY,
  digests: GUILD_KEY,
  cursors: GUILD_KEY,
  meta: GUILD_KEY,
  budgets: GUILD_KEY,
  messages: GUILD_KEY,
  buckets: GUILD_KEY,
  outcomes: GUILD_KEY,
  intake: GUILD_KEY,
  leases: GUILD_KEY,
  replyClaims: GUILD_KEY,
  modes: GUILD_KEY,
  factVectors: GUILD_KEY,
  messageVectors: GUILD_KEY,
  storeMeta: null,
  tokens: { _id: 1 },
  erasureCounters: GUILD_KEY,
  erasures: GUILD_KEY,
  reactions: GUILD_KEY,
};

/** Collection name of each role (the names operators see). */
export const COLLECTION_NAMES = NAMES;

/** topStrength's order (strength, then most recently reinforced, then id), as a sort and index keys. */
export const STRENGTH_ORDER = { strength: -1, lastReinforcedAt: -1, id: 1 } as const;

/**
 * Secondary indexes, created at setup (idempotent: same names and keys every time). Uniqueness
 * never relies on them: every unique natural key is the `_id`. No partial, TTL or text indexes
 * (FerretDB rejects them); the keyword index is the multikey `terms` array.
 */
export const INDEXES: Readonly<Partial<Record<keyof Collections, readonly IndexDescription[]>>> = {
  facts: [
    { name: 'guild_id', key: { guildId: 1, id: 1 } },
    // A scope's strongest facts (topStrength, in STRENGTH_ORDER) straight from the index: equality
    // on guild, subject and activity, then the sort keys, so MongoDB reads `limit` entries per
    // subject instead of fetching and sorting every fact of the scope.
    {
      name: 'guild_subject_strength',
      key: { guildId: 1, subjectId: 1, active: 1, ...STRENGTH_ORDER },
    },
    { name: 'guild_normalized', key: { guildId: 1, normalizedText: 1 } },
    { name: 'guild_terms', key: { guildId: 1, terms: 1 } },
    { name: 'guild_scope_key', key: { guildId: 1, sk: 1, active: 1 } },
    { name: 'guild_speaker', key: { guildId: 1, 'attribution.speakerId': 1 } },
    { name: 'guild_source_author', key: { guildId: 1, 'sources.authorId': 1 } },
    { name: 'guild_source_message', key: { guildId: 1, 'sources.messageId': 1 } },
  ],
  history: [{ name: 'guild_fact_at', key: { guildId: 1, factId: 1, at: 1 } }],
  links: [
    { name: 'guild_node', key: { guildId: 1, nodeType: 1, nodeId: 1 } },
    { name: 'guild_fact', key: { guildId: 1, factId: 1 } },
  ],
  relations: [
    { name: 'guild_src', key: { guildId: 1, srcType: 1, srcId: 1, validUntil: 1 } },
    { name: 'guild_dst', key: { guildId: 1, dstType: 1, dstId: 1, validUntil: 1 } },
    { name: 'guild_evidence', key: { guildId: 1, evidenceFactIds: 1 } },
  ],
  entities: [{ name: 'guild_linked_user', key: { guildId: 1, linkedUserId: 1 } }],
  aliases: [
    { name: 'guild_alias', key: { guildId: 1, alias: 1 } },
    { name: 'guild_user_ids', key: { guildId: 1, userIds: 1 } },
  ],
  optOuts: [{ name: 'guild_user', key: { guildId: 1, userId: 1 } }],
  digests: [{ name: 'guild', key: { guildId: 1 } }],
  messages: [
    { name: 'channel_time', key: { guildId: 1, channelId: 1, createdAt: 1, messageId: 1 } },
    { name: 'author_time', key: { guildId: 1, authorId: 1, createdAt: 1 } },
    { name: 'guild_time', key: { guildId: 1, createdAt: 1, messageId: 1 } },
    { name: 'guild_terms', key: { guildId: 1, terms: 1 } },
  ],
  budgets: [{ name: 'guild_period', key: { guildId: 1, period: 1 } }],
  buckets: [{ name: 'guild', key: { guildId: 1 } }],
  intake: [{ name: 'guild_key', key: { guildId: 1, subjectKey: 1 } }],
  outcomes: [{ name: 'guild_time', key: { guildId: 1, createdAt: 1 } }],
  leases: [{ name: 'until', key: { until: 1 } }],
  modes: [{ name: 'last_active', key: { lastActiveAt: 1 } }],
  factVectors: [{ name: 'guild_active_scope', key: { guildId: 1, active: 1, sk: 1 } }],
  messageVectors: [{ name: 'guild_active_scope', key: { guildId: 1, active: 1, sk: 1 } }],
  tokens: [{ name: 'at', key: { at: 1 } }],
  erasures: [
    { name: 'guild_generation', key: { guildId: 1, generation: 1 } },
    { name: 'at', key: { at: 1 } },
  ],
  reactions: [
    { name: 'guild_message', key: { guildId: 1, messageId: 1 } },
    { name: 'guild_user', key: { guildId: 1, 'r.u': 1, messageId: 1 } },
  ],
};

/**
 * Indexes earlier versions created and this one replaced, dropped at setup (a name whose keys
 * changed cannot be created again: MongoDB refuses a second definition under one name).
 */
export const RETIRED_INDEXES: Readonly<Partial<Record<keyof Collections, readonly string[]>>> = {
  // Replaced by guild_subject_strength (the same prefix, then topStrength's whole order).
  facts: ['guild_subject_active'],
};

/** Drops the retired indexes that exist (another process may drop one at the same time). */
export async function dropRetiredIndexes(c: Collections): Promise<void> {
  for (const [role, names] of Object.entries(RETIRED_INDEXES)) {
    const coll = c[role as keyof Collections] as unknown as Collection;
    // A collection not created yet has no indexes (MongoDB answers NamespaceNotFound).
    const listed = await coll.indexes().catch((error: unknown) => {
      if ((error as { codeName?: string }).codeName === 'NamespaceNotFound') return [];
      throw error;
    });
    const existing = new Set(listed.map((i) => i.name));
    for (const name of names ?? [])
      if (existing.has(name))
        await coll.dropIndex(name).catch((error: unknown) => {
          if ((error as { codeName?: string }).codeName !== 'IndexNotFound') throw error;
        });
  }
}

/**
 * One index per command: FerretDB v1 drops the connection ("slice bounds out of range") when
 * several processes send a multi-index createIndexes for the same collection at once.
 */
export async function createIndexes(c: Collections): Promise<void> {
  for (const [role, specs] of Object.entries(INDEXES)) {
    const coll = c[role as keyof Collections] as unknown as Collection;
    for (const spec of specs ?? []) await coll.createIndexes([spec]);
  }
}
