import type { GuardedDoc } from './guard-types.js';

// Stored shapes of the conversation side: messages, the ingest queue (buckets, outcomes, intake),
// batch leases, reply claims and active modes. Every document has a string `_id` (see `docKey`).
// User-controlled strings are only ever values, never field names.

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
  /** Intake token of the enqueue that inserted the row (see mongo-intake.ts); absent on older rows. */
  ik?: string;
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

/**
 * A queued row not yet in its key's bucket (see mongo-intake.ts): inserted with the row, folded into
 * the bucket by the next claim of the key. `ik` matches the row's `ik` when this intake inserted it.
 */
export interface IntakeDoc {
  _id: string;
  guildId: string;
  subjectKey: string;
  at: Date;
  ik: string;
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
