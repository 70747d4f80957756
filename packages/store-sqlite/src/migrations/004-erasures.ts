import type { Migration } from './migration.js';

/**
 * The erasure log: one row per purge or forgotten message, numbered per guild. Extraction batches
 * read the guild's generation before they claim messages and check it when they commit, so work
 * that was in flight during an erasure cannot write the erased data back.
 */
export const erasuresMigration: Migration = {
  version: 4,
  name: 'erasures',
  up(db) {
    db.exec(`
      CREATE TABLE erasure_generations (
        guild_id TEXT PRIMARY KEY,
        generation INTEGER NOT NULL
      );
      CREATE TABLE erasures (
        guild_id TEXT NOT NULL,
        generation INTEGER NOT NULL,
        user_id TEXT,
        message_id TEXT,
        at INTEGER NOT NULL,
        PRIMARY KEY (guild_id, generation)
      );
      CREATE INDEX erasures_at ON erasures (at);
    `);
  },
};
