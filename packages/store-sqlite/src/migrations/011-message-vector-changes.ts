import type { Migration } from './migration.js';

/**
 * Entries of `message_vector_changes` kept (pruned by trigger): the log holds every entry after
 * `max(seq) - MESSAGE_VECTOR_CHANGES_KEPT`, and a copy further behind starts over.
 */
export const MESSAGE_VECTOR_CHANGES_KEPT = 65_536;

/**
 * Which message vectors were added, changed or deleted, from any connection and in the same
 * transaction as the change, so a store that keeps a guild's message vectors in memory
 * (`MessageVectors`) re-reads only those. Rows added to and deleted from `vector_ids` are logged by
 * trigger; a vec0 table takes no trigger, so `VecTable` logs its in-place updates of message vectors
 * (a new embedding, the active flag) itself. Each entry removes the one MESSAGE_VECTOR_CHANGES_KEPT
 * before it by rowid equality (seq is always max + 1, so the window stays whole): a range delete
 * is planned as a full scan whenever the statistics say the table is tiny, which made every insert
 * read the whole log. Readers go through the (guild, seq) index for the same reason.
 */
/** How `message_vector_changes` drops its oldest entry (see the migration). */
export const MESSAGE_VECTOR_CHANGES_PRUNE = `DELETE FROM message_vector_changes WHERE seq = NEW.seq - ${MESSAGE_VECTOR_CHANGES_KEPT}`;

export const messageVectorChangesMigration: Migration = {
  version: 11,
  name: 'message-vector-changes',
  up(db) {
    const log = (event: 'INSERT' | 'DELETE', row: 'NEW' | 'OLD') => `
      CREATE TRIGGER vector_ids_message_${event.toLowerCase()} AFTER ${event} ON vector_ids
      WHEN ${row}.kind = 'message' BEGIN
        INSERT INTO message_vector_changes (guild_id, row_id) VALUES (${row}.guild_id, ${row}.row_id);
      END;`;
    db.exec(`
      CREATE TABLE message_vector_changes (
        seq INTEGER PRIMARY KEY,
        guild_id TEXT NOT NULL,
        row_id INTEGER NOT NULL
      );
      CREATE INDEX message_vector_changes_guild ON message_vector_changes (guild_id, seq);
      CREATE TRIGGER message_vector_changes_prune AFTER INSERT ON message_vector_changes BEGIN
        ${MESSAGE_VECTOR_CHANGES_PRUNE};
      END;
      ${log('INSERT', 'NEW')}
      ${log('DELETE', 'OLD')}
    `);
  },
};
