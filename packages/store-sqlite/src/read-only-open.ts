import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ErrorCode, MemoryError } from '@permafrost/core';
import Database from 'better-sqlite3';
import { LATEST_SCHEMA_VERSION, schemaVersion } from './migrations/index.js';
import { openError } from './open-file.js';
import { loadVectorExtension } from './vector-extension.js';

/**
 * Opens an existing database file for reading only (inspection tools): never creates the file or
 * its folder and never migrates. A missing file is NOT_FOUND; a file at another schema version is
 * SCHEMA_VERSION_UNSUPPORTED saying how to get to the current one.
 */
export function openReadOnlyDatabase(path: string, busyTimeoutMs: number): Database.Database {
  const absolute = resolve(path);
  if (!existsSync(absolute))
    throw new MemoryError(
      ErrorCode.NOT_FOUND,
      `no SQLite database at ${absolute} (opened read-only, so nothing was created; check the path)`,
    );
  let db: Database.Database;
  try {
    db = new Database(absolute, { readonly: true, fileMustExist: true, timeout: busyTimeoutMs });
  } catch (error) {
    throw openError(absolute, error);
  }
  try {
    db.pragma('foreign_keys = ON');
    db.pragma('temp_store = MEMORY');
    db.pragma('cache_size = -32768');
    loadVectorExtension(db);
    const version = schemaVersion(db);
    if (version !== LATEST_SCHEMA_VERSION)
      throw new MemoryError(
        ErrorCode.SCHEMA_VERSION_UNSUPPORTED,
        `${absolute} is at schema v${version}, this library reads v${LATEST_SCHEMA_VERSION}: ${
          version < LATEST_SCHEMA_VERSION
            ? 'open it once for writing (the bot, or a writing command) to migrate it'
            : 'upgrade Permafrost'
        }`,
      );
  } catch (error) {
    db.close();
    throw openError(absolute, error);
  }
  return db;
}
