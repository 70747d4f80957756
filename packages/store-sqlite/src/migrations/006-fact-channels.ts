import type { Migration } from './migration.js';

/**
 * Facts remember the channels they were learned in (`channels`, a JSON array of
 * `{ channelId, parentId }`), which audiences are checked against. Existing facts get the channels
 * of their source refs, with the thread parent of each source message where the message is still
 * stored (null otherwise); facts with no source ref stay channel-free. Digests record the channels
 * of the facts they summarise; existing digests get NULL (unknown: shown only to guild-wide reads
 * until they are regenerated).
 */
export const factChannelsMigration: Migration = {
  version: 6,
  name: 'fact-channels',
  up(db) {
    db.exec(`
      ALTER TABLE facts ADD COLUMN channels TEXT NOT NULL DEFAULT '[]';
      ALTER TABLE digests ADD COLUMN channels TEXT;
      UPDATE facts SET channels = (
        SELECT coalesce(json_group_array(json_object('channelId', ch, 'parentId', parent)), '[]')
        FROM (
          SELECT json_extract(s.value, '$.channelId') AS ch,
                 max((SELECT m.thread_parent_id FROM messages m
                       WHERE m.guild_id = facts.guild_id
                         AND m.message_id = json_extract(s.value, '$.messageId'))) AS parent
          FROM json_each(facts.sources) s
          WHERE coalesce(json_extract(s.value, '$.channelId'), '') <> ''
          GROUP BY ch
        )
      );
    `);
  },
};
