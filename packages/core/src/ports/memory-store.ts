import type { BackupManifest } from '../model/admin.js';
import type { ActiveModeStore } from './active-mode-store.js';
import type { AliasStore } from './alias-store.js';
import type { BudgetStore } from './budget-store.js';
import type { ConsentStore } from './consent-store.js';
import type { ConversationStore } from './conversation-store.js';
import type { CursorStore } from './cursor-store.js';
import type { DigestStore } from './digest-store.js';
import type { ErasureLog } from './erasure-log.js';
import type { FactStore } from './fact-store.js';
import type { GraphStore } from './graph-store.js';
import type { GuildAdminStore } from './guild-admin-store.js';
import type { IngestQueue } from './ingest-queue.js';
import type { Logger } from './logger.js';
import type { MetaStore } from './meta-store.js';
import type { ReactionStore } from './reaction-store.js';
import type { ReplyClaimStore } from './reply-claim-store.js';
import type { VectorIndex } from './vector-index.js';

/** What a store can do; pipelines and the conformance suite branch on these, never on names. */
export interface StoreCapabilities {
  /** `atomic`: a failing transaction leaves nothing. `ordered`: writes are ordered so a retry converges. */
  readonly transactions: 'atomic' | 'ordered';
  /** Vector search runs inside the database (sqlite-vec, Atlas) rather than in-process. */
  readonly nativeVectorSearch: boolean;
  /** Several OS processes may share the store safely. */
  readonly multiProcess: boolean;
  /** Purged content is physically removed from storage files (not just unlinked). */
  readonly physicalPurge: boolean;
  /** Data survives a restart (a new store object on the same location sees it). */
  readonly durable: boolean;
}

export const defaultCapabilities: StoreCapabilities = {
  transactions: 'ordered',
  nativeVectorSearch: false,
  multiProcess: false,
  physicalPurge: false,
  durable: false,
};

/**
 * A storage backend: one object per process exposing narrow role ports (one concern each) that
 * share a connection; one implementation object may serve several roles.
 * `transaction(fn)` runs fn so that every port call made inside it (in its async context) commits
 * or rolls back together where `capabilities.transactions` is `atomic`; nested calls join the
 * outer scope.
 */
export interface MemoryStore {
  readonly name: string;
  readonly capabilities: StoreCapabilities;
  readonly facts: FactStore;
  readonly aliases: AliasStore;
  readonly graph: GraphStore;
  readonly consent: ConsentStore;
  readonly digests: DigestStore;
  readonly cursors: CursorStore;
  readonly meta: MetaStore;
  readonly budgets: BudgetStore;
  readonly erasures: ErasureLog;
  readonly admin: GuildAdminStore;
  readonly queue: IngestQueue;
  readonly vectors: VectorIndex;
  readonly conversation: ConversationStore;
  readonly claims: ReplyClaimStore;
  readonly modes: ActiveModeStore;
  readonly reactions: ReactionStore;
  /** Creates schema and indexes; safe to call more than once. */
  setup(): Promise<void>;
  /** Cheap liveness check; throws when the backend is unreachable. */
  ping(): Promise<void>;
  transaction<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * Optional: copies the live store to a new file at `path` (which must not exist) while it keeps
   * serving, verifies the copy and describes it. Stores without it are backed up with their own
   * tools (`admin.backup` answers BACKUP_UNSUPPORTED).
   */
  backup?(input: { readonly path: string }): Promise<BackupManifest>;
  close(): Promise<void>;
}

/** Builds a store from a storage URL (the raw string); stores register one per URL scheme. */
export type StoreFactory = (url: string, options: StoreFactoryOptions) => MemoryStore | Promise<MemoryStore>;

export interface StoreFactoryOptions {
  readonly logger?: Logger;
}
