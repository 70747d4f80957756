import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { type BackupManifest, ErrorCode, MemoryError } from '@permafrost/core';
import Database from 'better-sqlite3';
import type { SqliteConnection } from './connection.js';
import { LATEST_SCHEMA_VERSION, schemaVersion } from './migrations/index.js';

/** Tables whose row counts a manifest reports (the data a restore must bring back). */
const COUNTED = [
  'facts',
  'fact_history',
  'links',
  'relations',
  'entities',
  'aliases',
  'digests',
  'opt_outs',
  'messages',
  'vector_ids',
] as const;

const invalidPath = (what: 'path' | 'from' | 'to', message: string) =>
  new MemoryError(ErrorCode.SCHEMA_INVALID, message, { issues: [{ path: [what], code: 'custom', message }] });

/** A file (or its WAL) already at `path`: a backup or restore never overwrites one. */
function refuseExisting(path: string, what: 'path' | 'to'): void {
  for (const suffix of ['', '-wal', '-journal'])
    if (existsSync(path + suffix))
      throw invalidPath(what, `a file already exists at ${path + suffix}; choose a new path`);
  if (!existsSync(dirname(path))) throw invalidPath(what, `the folder ${dirname(path)} does not exist`);
}

function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/**
 * Checks a database copy the way a restore needs it: `PRAGMA integrity_check` is ok, its schema
 * version is one this code reads, and every counted table answers. The copy is switched to a
 * rollback journal first, so it stays one self-contained file (no -wal or -shm beside it).
 */
export function verifySqliteCopy(path: string): BackupManifest {
  let db: Database.Database;
  try {
    db = new Database(path, { fileMustExist: true });
  } catch (error) {
    throw new MemoryError(ErrorCode.STORE_CORRUPT, `the copy at ${path} cannot be opened as SQLite`, {
      cause: error,
    });
  }
  let version: number;
  const counts: Record<string, number> = {};
  try {
    db.pragma('journal_mode = DELETE');
    const integrity = (db.pragma('integrity_check') as { integrity_check: string }[]).map(
      (r) => r.integrity_check,
    );
    if (integrity.length !== 1 || integrity[0] !== 'ok')
      throw new MemoryError(ErrorCode.STORE_CORRUPT, `the copy at ${path} failed its integrity check`);
    version = schemaVersion(db);
    if (version > LATEST_SCHEMA_VERSION)
      throw new MemoryError(
        ErrorCode.SCHEMA_VERSION_UNSUPPORTED,
        `the copy at ${path} has schema version ${version}; this code reads up to ${LATEST_SCHEMA_VERSION}`,
      );
    if (version < 1)
      throw new MemoryError(ErrorCode.STORE_CORRUPT, `the copy at ${path} holds no Permafrost schema`);
    for (const table of COUNTED)
      counts[table] = (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    // Reactions arrived with schema version 7; an older copy has none to count.
    if (version >= 7)
      counts['reactions'] = (db.prepare('SELECT count(*) AS n FROM reactions').get() as { n: number }).n;
  } catch (error) {
    if (MemoryError.is(error)) throw error;
    throw new MemoryError(ErrorCode.STORE_CORRUPT, `the copy at ${path} could not be read back`, {
      cause: error,
    });
  } finally {
    db.close();
  }
  return {
    path,
    sha256: sha256(path),
    bytes: statSync(path).size,
    schemaVersion: version,
    counts,
    createdAt: new Date(),
  };
}

/**
 * Online backup: SQLite's backup API copies the live database page by page while the store keeps
 * serving (writers are not blocked; the copy is a consistent snapshot), then the copy is verified.
 * A copy that fails verification is deleted.
 */
export async function backupSqlite(connection: SqliteConnection, target: string): Promise<BackupManifest> {
  const path = resolve(target);
  refuseExisting(path, 'path');
  const db = await connection.run(() => connection.db);
  try {
    await db.backup(path);
    const manifest = verifySqliteCopy(path);
    if (manifest.schemaVersion !== LATEST_SCHEMA_VERSION)
      throw new MemoryError(ErrorCode.STORE_CORRUPT, `the copy at ${path} has an unexpected schema version`);
    return manifest;
  } catch (error) {
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(path + suffix, { force: true });
    if (MemoryError.is(error)) throw error;
    throw new MemoryError(ErrorCode.STORE_UNAVAILABLE, `the backup to ${path} failed`, { cause: error });
  }
}

/**
 * Restores a backup into a NEW file: refuses a target that exists (a live database is never
 * overwritten), verifies the backup, copies it beside the target and renames it into place, then
 * checks the result has the same bytes. `expectedSha256` (from the manifest) guards a moved copy.
 */
export function restoreSqliteBackup(input: {
  readonly from: string;
  readonly to: string;
  readonly expectedSha256?: string;
}): BackupManifest {
  const from = resolve(input.from);
  const to = resolve(input.to);
  if (!existsSync(from)) throw invalidPath('from', `no backup file at ${from}`);
  if (existsSync(`${from}-wal`))
    throw invalidPath('from', `${from} has a -wal file: it is a live database, not a backup copy`);
  refuseExisting(to, 'to');
  const source = verifySqliteCopy(from);
  if (input.expectedSha256 !== undefined && input.expectedSha256 !== source.sha256)
    throw new MemoryError(
      ErrorCode.STORE_CORRUPT,
      `the backup at ${from} does not match the expected sha256`,
    );
  const partial = `${to}.partial-${process.pid}`;
  try {
    copyFileSync(from, partial);
    renameSync(partial, to);
  } finally {
    rmSync(partial, { force: true });
  }
  const restored = verifySqliteCopy(to);
  if (restored.sha256 !== source.sha256)
    throw new MemoryError(ErrorCode.STORE_CORRUPT, `the restored file at ${to} differs from the backup`);
  return restored;
}
