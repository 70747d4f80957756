import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import Database from 'better-sqlite3';
import { LATEST_SCHEMA_VERSION, schemaVersion } from './migrations/index.js';
import { loadVectorExtension } from './vector-extension.js';

export interface DiagnosticCheck {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

function check(name: string, fn: () => string): DiagnosticCheck {
  try {
    return { name, ok: true, detail: fn() };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return {
      name,
      ok: false,
      detail: typeof code === 'string' ? code : error instanceof Error ? error.name : 'failed',
    };
  }
}

/**
 * Read-only health checks of a SQLite memory file for `permafrost doctor`: the native driver,
 * SQLite and FTS5, the sqlite-vec extension, and the schema version (never migrates or writes).
 */
export function diagnoseSqlite(path: string): DiagnosticCheck[] {
  const checks: DiagnosticCheck[] = [];
  let db: Database.Database | null = null;
  checks.push(
    check('native driver (better-sqlite3)', () => {
      db = new Database(':memory:');
      return `SQLite ${String((db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v)}`;
    }),
  );
  const probe = db as Database.Database | null;
  if (probe === null) return checks;
  checks.push(
    check('full-text search (FTS5)', () => {
      probe.exec('CREATE VIRTUAL TABLE t USING fts5(x)');
      return 'available';
    }),
  );
  checks.push(
    check('vector extension (sqlite-vec)', () => {
      loadVectorExtension(probe);
      return String((probe.prepare('SELECT vec_version() AS v').get() as { v: string }).v);
    }),
  );
  probe.close();
  if (path === ':memory:') {
    checks.push({ name: 'schema', ok: true, detail: `in memory (v${LATEST_SCHEMA_VERSION})` });
    return checks;
  }
  if (!existsSync(path)) {
    checks.push({ name: 'schema', ok: false, detail: `no database file at ${resolve(path)}` });
    return checks;
  }
  checks.push(
    check('schema', () => {
      const file = new Database(path, { readonly: true, fileMustExist: true });
      try {
        const version = schemaVersion(file);
        if (version > LATEST_SCHEMA_VERSION)
          throw Object.assign(new Error('newer'), {
            code: `SCHEMA_VERSION_UNSUPPORTED (file v${version}, library v${LATEST_SCHEMA_VERSION})`,
          });
        return version === LATEST_SCHEMA_VERSION
          ? `v${version} (latest)`
          : `v${version} (migrates to v${LATEST_SCHEMA_VERSION} on next open)`;
      } finally {
        file.close();
      }
    }),
  );
  return checks;
}
