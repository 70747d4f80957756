import type { Migration } from './migration.js';

/** Entries of `fact_changes` kept (pruned by trigger): a cache further behind starts over. */
export const FACT_CHANGES_KEPT = 4096;

/**
 * A per-guild counter that moves with every update and delete of the guild's facts and of their
 * links, from any connection and in the same transaction as the change (triggers, so no write path
 * can miss one), and with every batch of new links (`bumpFactEpoch`, once per batch: a trigger per
 * inserted row halved bulk write throughput). A new fact needs no move: it has an id and row id no
 * kept fact has. Updated and deleted fact rows are also logged (`fact_changes`), so a store that
 * keeps decoded facts between reads (`FactCache`) drops only those, and its node link lists, when
 * the counter moves. Counter rows are never deleted, so a counter never comes back to a value that
 * a cache holds.
 */
export const factEpochsMigration: Migration = {
  version: 10,
  name: 'fact-epochs',
  up(db) {
    const bump = (table: string, event: string, rows: readonly string[]) => `
      CREATE TRIGGER ${table}_epoch_${event.toLowerCase()} AFTER ${event} ON ${table} BEGIN
        ${rows
          .map(
            (row) => `INSERT INTO fact_epochs (guild_id, epoch) VALUES (${row}.guild_id, 1)
          ON CONFLICT (guild_id) DO UPDATE SET epoch = epoch + 1;`,
          )
          .join('\n        ')}
      END;`;
    // Which fact rows changed, so a cache evicts those and keeps the rest; the last
    // FACT_CHANGES_KEPT entries are kept (a cache further behind starts over).
    const log = (event: string) => `
      CREATE TRIGGER facts_change_${event.toLowerCase()} AFTER ${event} ON facts BEGIN
        INSERT INTO fact_changes (guild_id, row_id) VALUES (OLD.guild_id, OLD.row_id);
      END;`;
    db.exec(`
      CREATE TABLE fact_epochs (guild_id TEXT PRIMARY KEY, epoch INTEGER NOT NULL) WITHOUT ROWID;
      CREATE TABLE fact_changes (seq INTEGER PRIMARY KEY, guild_id TEXT NOT NULL, row_id INTEGER NOT NULL);
      CREATE TRIGGER fact_changes_prune AFTER INSERT ON fact_changes BEGIN
        DELETE FROM fact_changes WHERE seq <= NEW.seq - ${FACT_CHANGES_KEPT};
      END;
      ${['facts', 'links']
        .flatMap((t) => [bump(t, 'UPDATE', ['OLD', 'NEW']), bump(t, 'DELETE', ['OLD'])])
        .join('\n')}
      ${log('UPDATE')}
      ${log('DELETE')}
    `);
  },
};
