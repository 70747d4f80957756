import type { Logger } from '@permafrost/core';
import Database from 'better-sqlite3';
import { keywordIndexSplit, mergeKeywordIndex, OPEN_MERGE_PAGES } from './keyword-merge.js';
import { migrateDatabase } from './migrations/index.js';
import { ensureParentFolder, openError } from './open-file.js';
import { loadVectorExtension } from './vector-extension.js';
import { AUTOCHECKPOINT_PAGES, LARGE_WAL_BYTES } from './write-upkeep.js';

/**
 * Opens (creating it and its folder when missing) a database file for writing: WAL mode and the
 * store's pragmas, sqlite-vec loaded, the schema migrated to the latest version, planner statistics
 * refreshed, the fact keyword index merged. Any failure closes the handle and is reported by openError.
 */
export function openWritableDatabase(
  path: string,
  busyTimeoutMs: number,
  logger: Logger | undefined,
): Database.Database {
  ensureParentFolder(path);
  let db: Database.Database;
  try {
    db = new Database(path, { timeout: busyTimeoutMs });
  } catch (error) {
    throw openError(path, error);
  }
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('secure_delete = ON');
    db.pragma('temp_store = MEMORY');
    db.pragma('cache_size = -32768');
    db.pragma('mmap_size = 33554432'); // mapped file pages count in RSS: map at most 32 MiB
    // Until a background checkpointer takes over (busy files only), the writer checkpoints every
    // 4000 pages (~16 MB of WAL) instead of 1000; a WAL left larger than 64 MB is cut back on reset.
    db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    db.pragma(`journal_size_limit = ${LARGE_WAL_BYTES}`);
    loadVectorExtension(db);
    const result = migrateDatabase(db);
    if (result.to !== result.from)
      logger?.({ level: 'info', event: 'sqlite.migrated', data: { from: result.from, to: result.to } });
    // Planner statistics: bounded ANALYZE of tables whose stats are missing or stale. Only an
    // optimisation: a read-only file (or a busy one) is still opened for reading without it.
    db.pragma('analysis_limit = 400');
    try {
      db.pragma('optimize = 0x10002');
    } catch (error) {
      logger?.({ level: 'warn', event: 'sqlite.optimize_failed', error });
    }
    // The fact keyword index in one segment (scoped searches read each segment once per term).
    // Also only an optimisation: a busy file is still opened without it.
    try {
      if (keywordIndexSplit(db)) mergeKeywordIndex(db, OPEN_MERGE_PAGES);
    } catch (error) {
      logger?.({ level: 'warn', event: 'sqlite.keyword_merge_failed', error });
    }
  } catch (error) {
    db.close();
    throw openError(path, error);
  }
  return db;
}
