import type { GuardedDoc } from './guard-types.js';

// Stored shapes of governance and bookkeeping: opt-outs, digests, meta and cursors (key/value),
// budget counters, erasures, and the store's own meta. Every document has a string `_id`.
// User-controlled strings are only ever values, never field names.

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
  /** Absent or null: written before digests kept their facts' channels. */
  channels?: { channelId: string; parentId: string | null }[] | null;
}

export interface KeyValueDoc {
  _id: string;
  guildId: string | null;
  key: string;
  value: string;
}

/**
 * A budget counter (mongo-budgets.ts): one writer's tokens for one guild and period. Counters
 * written before per-writer counters were shared and guarded, and still carry their version `ep`.
 */
export interface CounterDoc {
  _id: string;
  guildId: string;
  period: string;
  tokens: number;
  ep?: string;
}

/** Store-internal facts (schema version, vector dimensions); separate from user meta. */
export interface StoreMetaDoc {
  _id: string;
  value: number | string;
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
