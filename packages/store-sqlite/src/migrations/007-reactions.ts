import type { Migration } from './migration.js';

/**
 * Reactions to messages: one row per (guild, message, member, emoji), so the counts per emoji and
 * who reacted (for purge, opt-out and export) come from the same rows. Rows hold ids, the emoji
 * and a time, never message text. The primary key is the natural key and the listing order
 * (`listReactions`); a second index finds a member's reactions (purge, export).
 */
export const reactionsMigration: Migration = {
  version: 7,
  name: 'reactions',
  up(db) {
    db.exec(`
      CREATE TABLE reactions (
        guild_id TEXT NOT NULL,
        message_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        emoji TEXT NOT NULL,
        channel_id TEXT NOT NULL,
        at INTEGER NOT NULL,
        PRIMARY KEY (guild_id, message_id, user_id, emoji)
      ) WITHOUT ROWID;
      CREATE INDEX reactions_by_user ON reactions (guild_id, user_id, message_id, emoji);
    `);
  },
};
