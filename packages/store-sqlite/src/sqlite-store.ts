import type { Logger, MemoryStore, StoreCapabilities } from '@permafrost/core';
import { conversationRoles, governanceRoles } from '@permafrost/core/store';
import { backupSqlite } from './backup.js';
import { SqliteConnection } from './connection.js';
import { EntityTable } from './entity-table.js';
import { ErasureTable } from './erasure-table.js';
import { FactCache } from './fact-cache.js';
import { FactTable } from './fact-table.js';
import { GuildSnapshots } from './guild-snapshot.js';
import { MessageTable } from './message-table.js';
import { PurgeWriter } from './purge.js';
import { ReadThread } from './read-thread/read-thread.js';
import { RelationTable } from './relation-table.js';
import { SqliteAliasStore } from './sqlite-alias-store.js';
import { SqliteConversationStore } from './sqlite-conversation-store.js';
import { SqliteFactStore } from './sqlite-fact-store.js';
import { SqliteGovernanceStore } from './sqlite-governance-store.js';
import { SqliteGraphStore } from './sqlite-graph-store.js';
import { SqliteIngestQueue } from './sqlite-queue.js';
import { SqliteReactionStore } from './sqlite-reaction-store.js';
import { SqliteVectorIndex } from './sqlite-vector-index.js';
import { VecTable } from './vec-table.js';

export const SQLITE_CAPABILITIES: StoreCapabilities = {
  transactions: 'atomic',
  nativeVectorSearch: true,
  multiProcess: true,
  physicalPurge: true,
  durable: true,
};

export interface SqliteStoreOptions {
  /** Database file path, or `:memory:` (one private database per store object). */
  readonly path: string;
  /** How long a write waits for another connection's lock before STORE_BUSY (default 5000). */
  readonly busyTimeoutMs?: number;
  readonly logger?: Logger;
  /**
   * Open an existing file for reading only (inspection tools): a missing file is NOT_FOUND and
   * nothing is created or migrated; writes fail with STORE_READ_ONLY.
   */
  readonly readOnly?: boolean;
}

/**
 * The default store: one better-sqlite3 connection (WAL) with sqlite-vec and FTS5, every port on it.
 * Opening and migrating happen at `setup()` or at the first call; `close()` is final.
 */
export function createSqliteStore(options: SqliteStoreOptions): MemoryStore {
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  const connection = new SqliteConnection({
    path: options.path,
    busyTimeoutMs,
    logger: options.logger,
    readOnly: options.readOnly,
  });
  const readThread = new ReadThread(options.path, busyTimeoutMs, options.logger);
  const vec = new VecTable(connection, undefined, readThread);
  const messages = new MessageTable(connection, vec, () => readThread.dropCopies());
  const factTable = new FactTable(connection);
  const entities = new EntityTable(connection);
  const relations = new RelationTable(connection);
  const factCache = new FactCache(connection);
  return {
    name: 'sqlite',
    capabilities: SQLITE_CAPABILITIES,
    facts: new SqliteFactStore(connection, factTable, factCache),
    aliases: new SqliteAliasStore(connection),
    graph: new SqliteGraphStore(connection, entities, relations, factCache),
    ...governanceRoles(
      new SqliteGovernanceStore(
        connection,
        new GuildSnapshots(connection, factTable, relations, entities),
        new PurgeWriter(connection, messages, vec, relations),
        new ErasureTable(connection),
      ),
    ),
    queue: new SqliteIngestQueue(connection, messages),
    vectors: new SqliteVectorIndex(connection, vec),
    ...conversationRoles(new SqliteConversationStore(connection, messages, readThread)),
    reactions: new SqliteReactionStore(connection),
    // Opens and migrates; moves vectors out of the pre-sharding table once (see VecLayout).
    setup: async () => {
      if (await connection.run(() => vec.needsUpgrade())) await connection.write(() => vec.upgrade());
    },
    ping: () => connection.run(() => void connection.stmt('SELECT 1').get()),
    transaction: (fn) => connection.transaction(fn),
    backup: (input) => backupSqlite(connection, input.path),
    close: async () => {
      await readThread.close();
      await connection.close();
    },
  };
}
