import type { Migration } from './migration.js';

/**
 * One message table that is both the ingest queue and the conversation history, its contentless
 * FTS5 index (filled lazily from a pending list), per-guild status counters kept by triggers, key
 * leases, reply claims, active modes.
 */
export const conversationMigration: Migration = {
  version: 2,
  name: 'conversation',
  up(db) {
    db.exec(`
      CREATE TABLE messages (
        row_id INTEGER PRIMARY KEY,
        guild_id TEXT NOT NULL,
        message_id TEXT NOT NULL,
        channel_id TEXT NOT NULL,
        author_id TEXT NOT NULL,
        author_username TEXT NOT NULL,
        author_display_name TEXT NOT NULL,
        author_is_bot INTEGER NOT NULL,
        content TEXT NOT NULL,
        content_truncated INTEGER NOT NULL,
        raw_stored INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        mention_ids TEXT NOT NULL,
        reply_to_message_id TEXT,
        thread_parent_id TEXT,
        edited INTEGER NOT NULL,
        metadata TEXT,
        kind TEXT NOT NULL,
        subject_key TEXT NOT NULL,
        status TEXT NOT NULL,
        attempts INTEGER NOT NULL,
        next_attempt_at INTEGER,
        lease_owner TEXT,
        lease_until INTEGER,
        processed_at INTEGER
      );
      CREATE UNIQUE INDEX messages_guild_id ON messages (guild_id, message_id);
      CREATE INDEX messages_queue
        ON messages (status, guild_id, subject_key, created_at, message_id, next_attempt_at)
        WHERE kind = 'chat' AND raw_stored = 1;
      CREATE INDEX messages_status ON messages (status, created_at);
      CREATE INDEX messages_channel ON messages (guild_id, channel_id, created_at, message_id);
      CREATE INDEX messages_author ON messages (guild_id, author_id, created_at, message_id);
      CREATE INDEX messages_recent ON messages (guild_id, created_at, message_id);
      CREATE INDEX messages_lease ON messages (lease_until) WHERE status = 'claimed';

      CREATE VIRTUAL TABLE messages_fts USING fts5(
        terms, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 0'
      );
      INSERT INTO messages_fts (messages_fts, rank) VALUES ('secure-delete', 1);
      -- Rows waiting to be tokenised into messages_fts: enqueue stays a plain row insert, and the
      -- index is brought up to date in bulk by claims and before every message search.
      CREATE TABLE messages_fts_pending (row_id INTEGER PRIMARY KEY);
      CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
        DELETE FROM messages_fts WHERE rowid = old.row_id;
        DELETE FROM messages_fts_pending WHERE row_id = old.row_id;
      END;

      CREATE TABLE message_counts (
        guild_id TEXT NOT NULL,
        status TEXT NOT NULL,
        n INTEGER NOT NULL,
        PRIMARY KEY (guild_id, status)
      ) WITHOUT ROWID;
      CREATE TRIGGER message_counts_insert AFTER INSERT ON messages BEGIN
        INSERT INTO message_counts (guild_id, status, n) VALUES (new.guild_id, new.status, 1)
          ON CONFLICT (guild_id, status) DO UPDATE SET n = n + 1;
      END;
      CREATE TRIGGER message_counts_delete AFTER DELETE ON messages BEGIN
        UPDATE message_counts SET n = n - 1 WHERE guild_id = old.guild_id AND status = old.status;
      END;
      CREATE TRIGGER message_counts_update AFTER UPDATE OF status ON messages
        WHEN old.status <> new.status BEGIN
        UPDATE message_counts SET n = n - 1 WHERE guild_id = old.guild_id AND status = old.status;
        INSERT INTO message_counts (guild_id, status, n) VALUES (new.guild_id, new.status, 1)
          ON CONFLICT (guild_id, status) DO UPDATE SET n = n + 1;
      END;

      CREATE TABLE key_leases (
        guild_id TEXT NOT NULL,
        subject_key TEXT NOT NULL,
        owner TEXT NOT NULL,
        lease_until INTEGER NOT NULL,
        PRIMARY KEY (guild_id, subject_key)
      ) WITHOUT ROWID;
      CREATE TABLE reply_claims (
        channel_id TEXT NOT NULL,
        message_id TEXT NOT NULL,
        owner TEXT NOT NULL,
        until INTEGER NOT NULL,
        PRIMARY KEY (channel_id, message_id)
      ) WITHOUT ROWID;
      CREATE TABLE active_modes (
        instance_id TEXT NOT NULL,
        guild_id TEXT NOT NULL,
        channel_id TEXT NOT NULL,
        mode TEXT NOT NULL,
        started_at INTEGER NOT NULL,
        last_active_at INTEGER NOT NULL,
        PRIMARY KEY (instance_id, guild_id, channel_id)
      ) WITHOUT ROWID;
      CREATE INDEX active_modes_recent ON active_modes (last_active_at);
    `);
  },
};
