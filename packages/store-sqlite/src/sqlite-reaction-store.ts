import type { Reaction, ReactionCount, ReactionRef } from '@permafrost/core';
import { type ReactionListQuery, ReactionStoreBase } from '@permafrost/core/store';
import type { SqliteConnection } from './connection.js';
import { date, idList } from './rows/codec.js';

interface ReactionRow {
  readonly guild_id: string;
  readonly message_id: string;
  readonly user_id: string;
  readonly emoji: string;
  readonly channel_id: string;
  readonly at: number;
}

const fromRow = (r: ReactionRow): Reaction => ({
  guildId: r.guild_id,
  channelId: r.channel_id,
  messageId: r.message_id,
  userId: r.user_id,
  emoji: r.emoji,
  at: date(r.at),
});

const DELETE_ONE =
  'DELETE FROM reactions WHERE guild_id = ? AND message_id = ? AND user_id = ? AND emoji = ?';

/**
 * The `reactions` table (migration 7): one row per (guild, message, member, emoji), ids and the
 * emoji only. The primary key orders `listReactions`; counts are one GROUP BY over it.
 */
export class SqliteReactionStore extends ReactionStoreBase {
  readonly #c: SqliteConnection;

  constructor(connection: SqliteConnection) {
    super();
    this.#c = connection;
  }

  override addReaction(r: Reaction): Promise<boolean> {
    return this.#c.write(
      () =>
        this.#c
          .stmt(
            `INSERT INTO reactions (guild_id, message_id, user_id, emoji, channel_id, at) VALUES (?, ?, ?, ?, ?, ?)
               ON CONFLICT DO NOTHING`,
          )
          .run(r.guildId, r.messageId, r.userId, r.emoji, r.channelId, r.at.getTime()).changes === 1,
    );
  }

  override removeReaction(guildId: string, ref: ReactionRef): Promise<boolean> {
    return this.#c.write(
      () => this.#c.stmt(DELETE_ONE).run(guildId, ref.messageId, ref.userId, ref.emoji).changes === 1,
    );
  }

  override clearReactions(
    guildId: string,
    messageIds: readonly string[],
    options: { readonly emoji?: string } = {},
  ): Promise<number> {
    if (messageIds.length === 0) return Promise.resolve(0);
    const ids = 'guild_id = ? AND message_id IN (SELECT value FROM json_each(?))';
    return this.#c.write(() =>
      options.emoji === undefined
        ? this.#c.stmt(`DELETE FROM reactions WHERE ${ids}`).run(guildId, idList(messageIds)).changes
        : this.#c
            .stmt(`DELETE FROM reactions WHERE ${ids} AND emoji = ?`)
            .run(guildId, idList(messageIds), options.emoji).changes,
    );
  }

  override deleteReactions(guildId: string, refs: readonly ReactionRef[]): Promise<number> {
    if (refs.length === 0) return Promise.resolve(0);
    return this.#c.write(() => {
      const del = this.#c.stmt(DELETE_ONE);
      let n = 0;
      for (const r of refs) n += del.run(guildId, r.messageId, r.userId, r.emoji).changes;
      return n;
    });
  }

  override reactionCounts(
    guildId: string,
    messageIds: readonly string[],
    options: { readonly excludeUserIds?: readonly string[] } = {},
  ): Promise<Map<string, ReactionCount[]>> {
    return this.#c.run(() => {
      const out = new Map<string, ReactionCount[]>();
      if (messageIds.length === 0) return out;
      const rows = this.#c
        .stmt(
          `SELECT message_id, emoji, count(*) AS n FROM reactions
             WHERE guild_id = ? AND message_id IN (SELECT value FROM json_each(?))
               AND user_id NOT IN (SELECT value FROM json_each(?))
             GROUP BY message_id, emoji`,
        )
        .all(guildId, idList(messageIds), idList(options.excludeUserIds ?? [])) as {
        message_id: string;
        emoji: string;
        n: number;
      }[];
      for (const r of rows)
        out.set(r.message_id, [...(out.get(r.message_id) ?? []), { emoji: r.emoji, count: r.n }]);
      return out;
    });
  }

  override listReactions(guildId: string, query: ReactionListQuery): Promise<Reaction[]> {
    return this.#c.run(() => {
      let cond = 'guild_id = ?';
      const params: (string | number)[] = [guildId];
      if (query.userId !== undefined) {
        cond += ' AND user_id = ?';
        params.push(query.userId);
      }
      if (query.messageIds !== undefined) {
        cond += ' AND message_id IN (SELECT value FROM json_each(?))';
        params.push(idList(query.messageIds));
      }
      if (query.after !== undefined) {
        cond += ' AND (message_id, user_id, emoji) > (?, ?, ?)';
        params.push(query.after.messageId, query.after.userId, query.after.emoji);
      }
      const rows = this.#c
        .stmt(`SELECT * FROM reactions WHERE ${cond} ORDER BY message_id, user_id, emoji LIMIT ?`)
        .all(...params, Math.max(0, Math.floor(query.limit))) as ReactionRow[];
      return rows.map(fromRow);
    });
  }
}
