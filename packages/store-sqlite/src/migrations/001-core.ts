import type { Migration } from './migration.js';

/**
 * Facts (+ contentless FTS5 keyword index and history), graph, aliases, governance tables and the
 * vector id map. Timestamps are epoch milliseconds; arrays and objects are JSON text.
 */
export const coreMigration: Migration = {
  version: 1,
  name: 'core',
  up(db) {
    db.exec(`
      CREATE TABLE facts (
        row_id INTEGER PRIMARY KEY,
        guild_id TEXT NOT NULL,
        id TEXT NOT NULL,
        subject_id TEXT,
        speaker_id TEXT,
        text TEXT NOT NULL,
        normalized_text TEXT NOT NULL,
        category TEXT NOT NULL,
        confidence REAL NOT NULL,
        tier TEXT NOT NULL,
        scope TEXT NOT NULL,
        attribution TEXT NOT NULL,
        occurrences INTEGER NOT NULL,
        strength REAL NOT NULL,
        last_reinforced_at INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        observed_at INTEGER NOT NULL,
        valid_from INTEGER NOT NULL,
        valid_until INTEGER,
        supersedes_id TEXT,
        superseded_by_id TEXT,
        sources TEXT NOT NULL,
        related_user_ids TEXT NOT NULL,
        entity_slugs TEXT NOT NULL,
        expires_at INTEGER,
        version INTEGER NOT NULL
      );
      CREATE UNIQUE INDEX facts_guild_id ON facts (guild_id, id);
      CREATE INDEX facts_subject_strength
        ON facts (guild_id, subject_id, strength DESC, last_reinforced_at DESC);
      CREATE INDEX facts_normalized ON facts (guild_id, subject_id, normalized_text);
      CREATE INDEX facts_speaker ON facts (guild_id, speaker_id) WHERE speaker_id IS NOT NULL;

      CREATE VIRTUAL TABLE facts_fts USING fts5(
        terms, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 0'
      );
      INSERT INTO facts_fts (facts_fts, rank) VALUES ('secure-delete', 1);
      CREATE TRIGGER facts_fts_delete AFTER DELETE ON facts BEGIN
        DELETE FROM facts_fts WHERE rowid = old.row_id;
      END;

      CREATE TABLE fact_history (
        row_id INTEGER PRIMARY KEY,
        guild_id TEXT NOT NULL,
        fact_id TEXT NOT NULL,
        at INTEGER NOT NULL,
        kind TEXT NOT NULL,
        detail TEXT NOT NULL,
        previous_text TEXT,
        actor_id TEXT,
        version INTEGER NOT NULL
      );
      CREATE INDEX fact_history_fact ON fact_history (guild_id, fact_id, at);

      CREATE TABLE aliases (
        guild_id TEXT NOT NULL,
        alias TEXT NOT NULL,
        user_id TEXT NOT NULL,
        source TEXT NOT NULL,
        weight REAL NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (guild_id, alias, user_id)
      );
      CREATE INDEX aliases_user ON aliases (guild_id, user_id);

      CREATE TABLE links (
        guild_id TEXT NOT NULL,
        fact_id TEXT NOT NULL,
        node_type TEXT NOT NULL,
        node_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (guild_id, fact_id, node_type, node_id, kind)
      );
      CREATE INDEX links_node ON links (guild_id, node_type, node_id, fact_id);

      CREATE TABLE relations (
        row_id INTEGER PRIMARY KEY,
        guild_id TEXT NOT NULL,
        src_type TEXT NOT NULL,
        src_id TEXT NOT NULL,
        dst_type TEXT NOT NULL,
        dst_id TEXT NOT NULL,
        verb TEXT NOT NULL,
        polarity TEXT NOT NULL,
        weight REAL NOT NULL,
        occurrences INTEGER NOT NULL,
        confidence REAL NOT NULL,
        evidence TEXT NOT NULL,
        valid_from INTEGER NOT NULL,
        valid_until INTEGER,
        updated_at INTEGER NOT NULL
      );
      CREATE UNIQUE INDEX relations_active
        ON relations (guild_id, src_type, src_id, dst_type, dst_id, verb) WHERE valid_until IS NULL;
      CREATE INDEX relations_src ON relations (guild_id, src_type, src_id);
      CREATE INDEX relations_dst ON relations (guild_id, dst_type, dst_id);

      CREATE TABLE entities (
        guild_id TEXT NOT NULL,
        slug TEXT NOT NULL,
        name TEXT NOT NULL,
        kind TEXT NOT NULL,
        aliases TEXT NOT NULL,
        fact_count INTEGER NOT NULL,
        linked_user_id TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (guild_id, slug)
      );
      CREATE INDEX entities_linked ON entities (guild_id, linked_user_id) WHERE linked_user_id IS NOT NULL;
      CREATE TABLE entity_aliases (
        guild_id TEXT NOT NULL,
        alias TEXT NOT NULL,
        slug TEXT NOT NULL,
        pos INTEGER NOT NULL,
        PRIMARY KEY (guild_id, alias, slug)
      ) WITHOUT ROWID;

      CREATE TABLE opt_outs (
        guild_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        at INTEGER NOT NULL,
        PRIMARY KEY (guild_id, user_id)
      ) WITHOUT ROWID;
      CREATE TABLE digests (
        row_id INTEGER PRIMARY KEY,
        guild_id TEXT NOT NULL,
        subject_id TEXT,
        text TEXT NOT NULL,
        generated_at INTEGER NOT NULL,
        source_fact_count INTEGER NOT NULL
      );
      CREATE INDEX digests_subject ON digests (guild_id, subject_id);
      CREATE TABLE cursors (
        guild_id TEXT NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (guild_id, key)
      ) WITHOUT ROWID;
      CREATE TABLE budgets (
        guild_id TEXT NOT NULL,
        period TEXT NOT NULL,
        tokens INTEGER NOT NULL,
        PRIMARY KEY (guild_id, period)
      ) WITHOUT ROWID;
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;

      CREATE TABLE vector_ids (
        row_id INTEGER PRIMARY KEY,
        guild_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        item_id TEXT NOT NULL
      );
      CREATE UNIQUE INDEX vector_ids_item ON vector_ids (guild_id, kind, item_id);
      CREATE TABLE vector_meta (id INTEGER PRIMARY KEY CHECK (id = 1), dims INTEGER NOT NULL);
      -- Small integers for subject ids in vec0 metadata: text metadata longer than 12 bytes (every
      -- Discord snowflake) is stored out of line and makes filtered KNN several times slower.
      CREATE TABLE vector_subjects (ref INTEGER PRIMARY KEY, subject_id TEXT NOT NULL UNIQUE);
    `);
  },
};
