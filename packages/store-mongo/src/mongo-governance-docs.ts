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

export interface CounterDoc extends GuardedDoc {
  guildId: string;
  period: string;
  tokens: number;
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
