import type { Migration } from './migration.js';

/**
 * Read-only views of the keyword indexes' vocabulary (fts5vocab, no storage of their own): how many
 * rows hold each term, which with the index's row count gives a query's full-match score (the sum
 * of its terms' idf, as bm25() weighs them).
 */
export const keywordVocabularyMigration: Migration = {
  version: 9,
  name: 'keyword-vocabulary',
  up(db) {
    db.exec(`
      CREATE VIRTUAL TABLE facts_fts_vocab USING fts5vocab(facts_fts, 'row');
      CREATE VIRTUAL TABLE messages_fts_vocab USING fts5vocab(messages_fts, 'row');
    `);
  },
};
