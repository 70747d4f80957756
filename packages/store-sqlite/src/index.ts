import { sqlitePath } from '@permafrost/core/internal';
import { registerStoreFactory } from '@permafrost/core/store';
import { createSqliteStore } from './sqlite-store.js';

export { type DiagnosticCheck, diagnoseSqlite } from './diagnose.js';
/** @internal Schema tooling, exported for upgrade tests and the CLI doctor. */
export { LATEST_SCHEMA_VERSION, migrateDatabase, schemaVersion } from './migrations/index.js';
export { ftsMatchExpression } from './sql/fts-query.js';
export { createSqliteStore, SQLITE_CAPABILITIES, type SqliteStoreOptions } from './sqlite-store.js';

// Importing the package makes `sqlite://` storage URLs work in createMemory().
registerStoreFactory('sqlite', (url, options) =>
  createSqliteStore({ path: sqlitePath(url), ...(options.logger ? { logger: options.logger } : {}) }),
);

export { restoreSqliteBackup, verifySqliteCopy } from './backup.js';
