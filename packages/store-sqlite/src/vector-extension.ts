import { ErrorCode, MemoryError } from '@permafrost/core';
import type Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';

/**
 * Loads sqlite-vec: the extension bundled with the `sqlite-vec` package, or the file named by
 * `PERMAFROST_SQLITE_VEC_PATH` (for platforms without a prebuilt binary). A failure is
 * BACKEND_NOT_INSTALLED, naming the extension, never a generic storage error.
 */
export function loadVectorExtension(db: Database.Database): void {
  const override = process.env['PERMAFROST_SQLITE_VEC_PATH'];
  try {
    if (override) db.loadExtension(override);
    else sqliteVec.load(db);
  } catch (cause) {
    throw new MemoryError(
      ErrorCode.BACKEND_NOT_INSTALLED,
      'the sqlite-vec extension could not be loaded (reinstall sqlite-vec or set PERMAFROST_SQLITE_VEC_PATH)',
      { cause },
    );
  }
}
