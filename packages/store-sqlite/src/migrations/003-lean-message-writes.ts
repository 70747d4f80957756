import type { Migration } from './migration.js';

/**
 * Fewer pages touched per enqueued message (each touched page is a WAL frame on commit):
 * - `messages_status` goes; pruning old processed rows walks `messages_recent` guild by guild.
 * - new rows reach the keyword index by row id: everything above `messages_fts_state.indexed_through`
 *   is waiting, so an enqueue no longer writes a `messages_fts_pending` row. That list stays for
 *   edits of rows already indexed. Row ids are max+1, so when the highest rows are deleted the
 *   watermark comes down with them and a reused id is still seen as waiting.
 */
export const leanMessageWritesMigration: Migration = {
  version: 3,
  name: 'lean-message-writes',
  up(db) {
    db.exec(`
      DROP INDEX messages_status;
      CREATE TABLE messages_fts_state (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        indexed_through INTEGER NOT NULL
      );
      INSERT INTO messages_fts_state (id, indexed_through)
        SELECT 1, coalesce(max(row_id), 0) FROM messages;
      CREATE TRIGGER messages_fts_watermark AFTER DELETE ON messages
        WHEN old.row_id > (SELECT coalesce(max(row_id), 0) FROM messages) BEGIN
        UPDATE messages_fts_state SET indexed_through = (SELECT coalesce(max(row_id), 0) FROM messages)
          WHERE indexed_through > (SELECT coalesce(max(row_id), 0) FROM messages);
      END;
    `);
  },
};
