import { ErrorCode, MemoryError } from '@permafrost/core';
import type { Database } from 'better-sqlite3';
import { coreMigration } from './001-core.js';
import { conversationMigration } from './002-conversation.js';
import { leanMessageWritesMigration } from './003-lean-message-writes.js';
import { erasuresMigration } from './004-erasures.js';
import { guildClaimsMigration } from './005-guild-claims.js';
import { factChannelsMigration } from './006-fact-channels.js';
import { reactionsMigration } from './007-reactions.js';
import { coveringLinkReadsMigration } from './008-covering-link-reads.js';
import { keywordVocabularyMigration } from './009-keyword-vocabulary.js';
import { factEpochsMigration } from './010-fact-epochs.js';
import { messageVectorChangesMigration } from './011-message-vector-changes.js';
import { changeLogReadsMigration } from './012-change-log-reads.js';
import { keywordRewritesMigration } from './013-keyword-rewrites.js';
import type { Migration } from './migration.js';

export type { Migration } from './migration.js';

/** Every migration this version of the code knows, in order. */
export const MIGRATIONS: readonly Migration[] = [
  coreMigration,
  conversationMigration,
  leanMessageWritesMigration,
  erasuresMigration,
  guildClaimsMigration,
  factChannelsMigration,
  reactionsMigration,
  coveringLinkReadsMigration,
  keywordVocabularyMigration,
  factEpochsMigration,
  messageVectorChangesMigration,
  changeLogReadsMigration,
  keywordRewritesMigration,
];

/** The schema version this code writes. */
export const LATEST_SCHEMA_VERSION: number = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

export interface MigrationResult {
  readonly from: number;
  readonly to: number;
}

function unsupported(): MemoryError {
  return new MemoryError(
    ErrorCode.SCHEMA_VERSION_UNSUPPORTED,
    'the database schema is newer than this version of @permafrost/store-sqlite',
  );
}

/** The version recorded in the file (0 for a new file). */
export function schemaVersion(db: Database): number {
  const table = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'")
    .get();
  if (table === undefined) return 0;
  const row = db.prepare('SELECT max(version) AS v FROM schema_version').get() as { v: number | null };
  return row.v ?? 0;
}

/**
 * Applies the pending migrations up to `target` (default: latest) in one IMMEDIATE transaction
 * (a savepoint when a transaction is already open). A file newer than the code fails with
 * SCHEMA_VERSION_UNSUPPORTED and is left untouched. Internal: exported for upgrade tests.
 */
export function migrateDatabase(
  db: Database,
  options: { readonly target?: number; readonly now?: () => number } = {},
): MigrationResult {
  const target = options.target ?? LATEST_SCHEMA_VERSION;
  const now = options.now ?? Date.now;
  if (schemaVersion(db) > LATEST_SCHEMA_VERSION) throw unsupported();
  const apply = db.transaction((): MigrationResult => {
    db.exec(
      'CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
    );
    const from = schemaVersion(db);
    if (from > LATEST_SCHEMA_VERSION) throw unsupported();
    const record = db.prepare('INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)');
    let to = from;
    for (const m of MIGRATIONS) {
      if (m.version <= from || m.version > target) continue;
      m.up(db);
      record.run(m.version, m.name, now());
      to = m.version;
    }
    return { from, to };
  });
  return apply.immediate();
}
