import type { Migration } from './migration.js';

/**
 * Index-only link reads. A node's links (`linksForNodes`) are read from `links_node` alone, which
 * now carries the link's kind and time too, and each link's fact is checked for validity in
 * `facts_validity` instead of the fact row: promptContext reads a hundred or more links per request.
 */
export const coveringLinkReadsMigration: Migration = {
  version: 8,
  name: 'covering-link-reads',
  up(db) {
    db.exec(`
      DROP INDEX links_node;
      CREATE INDEX links_node ON links (guild_id, node_type, node_id, fact_id, kind, created_at);
      CREATE INDEX facts_validity ON facts (guild_id, id, superseded_by_id, valid_until);
    `);
  },
};
