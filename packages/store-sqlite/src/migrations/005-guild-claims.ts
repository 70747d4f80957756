import type { Migration } from './migration.js';

/**
 * Reply claims keyed by guild too (guild, channel, message): a channel or message id that two
 * platforms or guilds share can no longer make one guild's claim block another's. Claims live for
 * seconds, so the table is recreated empty rather than copied (a claim held during the upgrade
 * can be taken once more).
 */
export const guildClaimsMigration: Migration = {
  version: 5,
  name: 'guild-claims',
  up(db) {
    db.exec(`
      DROP TABLE reply_claims;
      CREATE TABLE reply_claims (
        guild_id TEXT NOT NULL,
        channel_id TEXT NOT NULL,
        message_id TEXT NOT NULL,
        owner TEXT NOT NULL,
        until INTEGER NOT NULL,
        PRIMARY KEY (guild_id, channel_id, message_id)
      ) WITHOUT ROWID;
    `);
  },
};
