import type { Migration } from './migration.js';

/**
 * `messages_fts_state.rewrites` counts the changes to the message keyword index that are not
 * appends: a message deleted (the `messages_fts_delete` trigger, from any connection) or edited
 * (`MessageTable.markEdited`, which takes its row out of the index to tokenise it again). Rows are
 * otherwise only ever added to the index, above every row it holds, so a reader that keeps the
 * index's postings in memory (`KeywordPostings`) and finds the count unchanged needs to read only
 * the rows added since; a changed count means it starts over.
 */
export const keywordRewritesMigration: Migration = {
  version: 13,
  name: 'keyword-rewrites',
  up(db) {
    db.exec(`
      ALTER TABLE messages_fts_state ADD COLUMN rewrites INTEGER NOT NULL DEFAULT 0;
      DROP TRIGGER messages_fts_delete;
      CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
        DELETE FROM messages_fts WHERE rowid = old.row_id;
        DELETE FROM messages_fts_pending WHERE row_id = old.row_id;
        UPDATE messages_fts_state SET rewrites = rewrites + 1 WHERE id = 1;
      END;
    `);
  },
};
