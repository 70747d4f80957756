import type { Migration } from './migration.js';

/**
 * A per-guild counter that moves with every update and delete of the guild's facts and of their
 * links, from any connection and in the same transaction as the change (triggers, so no write path
 * can miss one), and with every batch of new links (`bumpFactEpoch`, once per batch: a trigger per
 * inserted row halved bulk write throughput). A new fact needs no move: it has an id and row id no
 * kept fact has. A store keeps decoded facts and node links between reads for as long as their
 * guild's counter has not moved (`FactCache`). Rows are never deleted, so a counter never comes
 * back to a value that a cache holds.
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
    db.exec(`
      CREATE TABLE fact_epochs (guild_id TEXT PRIMARY KEY, epoch INTEGER NOT NULL) WITHOUT ROWID;
      ${['facts', 'links']
        .flatMap((t) => [bump(t, 'UPDATE', ['OLD', 'NEW']), bump(t, 'DELETE', ['OLD'])])
        .join('\n')}
    `);
  },
};
