import type { Migration } from './migration.js';

/**
 * `messages_fts_state.rewrites` counts the changes to the message keyword index that are not
 * appends: a searchable message deleted (`messages_fts_rewrite`, from any connection; session
 * entries, trimmed on every append past their cap, were never indexed and count nothing) or edited
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
      CREATE TRIGGER messages_fts_rewrite AFTER DELETE ON messages
      WHEN old.raw_stored = 1 AND old.kind <> 'session' BEGIN
        UPDATE messages_fts_state SET rewrites = rewrites + 1 WHERE id = 1;
      END;
    `);
  },
};
