import { FACT_CHANGES_KEPT } from './010-fact-epochs.js';
import type { Migration } from './migration.js';

/** How `fact_changes` drops its oldest entry: by rowid equality (see the migration). */
export const FACT_CHANGES_PRUNE = `DELETE FROM fact_changes WHERE seq = NEW.seq - ${FACT_CHANGES_KEPT}`;

/**
 * `fact_changes` (migration 010) pruned with a rowid range and was read with one: once the planner
 * statistics say the table holds a few rows (an ANALYZE while it did), both are planned as full
 * scans, so every logged fact change read the whole log (up to 4,096 rows) and so did every catch-up
 * of `FactCache`. The prune now deletes the one entry FACT_CHANGES_KEPT before the new one (seq is
 * always max + 1, so the window stays whole, as it was), and readers go through a (guild, seq)
 * index named in the query, as `message_vector_changes` does (migration 011).
 */
export const changeLogReadsMigration: Migration = {
  version: 12,
  name: 'change-log-reads',
  up(db) {
    db.exec(`
      DROP TRIGGER fact_changes_prune;
      CREATE TRIGGER fact_changes_prune AFTER INSERT ON fact_changes BEGIN
        ${FACT_CHANGES_PRUNE};
      END;
      CREATE INDEX fact_changes_guild ON fact_changes (guild_id, seq);
    `);
  },
};
