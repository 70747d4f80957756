import type { StoredMessage } from '@permafrost/core';
import type {
  ActiveMode,
  ChannelStats,
  MessageListQuery,
  MessageTextHit,
  MessageTextSearchOptions,
  MessageWindow,
  WindowAnchor,
} from '@permafrost/core/store';
import { ConversationRolesBase } from '@permafrost/core/store';
import { AFTER_POSITION, ANCHOR_SQL, BEFORE_POSITION, readWindows } from './channel-windows.js';
import type { SqliteConnection } from './connection.js';
import type { MessageTable } from './message-table.js';
import type { ReadThread } from './read-thread/read-thread.js';
import { date, dateOrNull, idList } from './rows/codec.js';
import { messageFields, REVERSE_CHRONOLOGICAL } from './rows/message-row.js';
import { indexRowCount } from './sql/fts-full-match.js';
import { ftsMatchExpression } from './sql/fts-query.js';
import { messageKeywordHits } from './sql/message-keyword-search.js';
import { truncateWal } from './wal-truncate.js';

type ModeKey = { readonly instanceId: string; readonly guildId: string; readonly channelId: string };

interface ModeRow {
  readonly instance_id: string;
  readonly guild_id: string;
  readonly channel_id: string;
  readonly mode: string;
  readonly started_at: number;
  readonly last_active_at: number;
}

const modeFromRow = (r: ModeRow): ActiveMode => ({
  instanceId: r.instance_id,
  guildId: r.guild_id,
  channelId: r.channel_id,
  mode: r.mode,
  startedAt: date(r.started_at),
  lastActiveAt: date(r.last_active_at),
});

/** Conversation history over the queue's message rows, reply claims and active modes. */
export class SqliteConversationStore extends ConversationRolesBase {
  readonly #c: SqliteConnection;
  readonly #m: MessageTable;
  readonly #thread: ReadThread;

  constructor(connection: SqliteConnection, messages: MessageTable, thread: ReadThread) {
    super();
    this.#c = connection;
    this.#m = messages;
    this.#thread = thread;
  }

  override channelHistory(
    guildId: string,
    channelId: string,
    options: { readonly limit: number; readonly beforeMessageId?: string; readonly afterMessageId?: string },
  ): Promise<StoredMessage[]> {
    return this.#c.run(() => {
      const limit = Math.max(0, Math.floor(options.limit));
      const anchorOf = (messageId: string | undefined) =>
        messageId === undefined
          ? undefined
          : ((this.#c.stmt(ANCHOR_SQL).get(guildId, channelId, messageId) as
              | { created_at: number; message_id: string }
              | undefined) ?? null);
      const after = anchorOf(options.afterMessageId);
      const before = anchorOf(options.beforeMessageId);
      if (after === null) return [];
      let cond = '';
      const params: (string | number)[] = [guildId, channelId];
      if (after) {
        cond += ` AND ${AFTER_POSITION}`;
        params.push(after.created_at, after.created_at, after.message_id);
      }
      if (before) {
        cond += ` AND ${BEFORE_POSITION}`;
        params.push(before.created_at, before.created_at, before.message_id);
      }
      const sql = `SELECT ${messageFields()} FROM messages WHERE guild_id = ? AND channel_id = ?${cond}`;
      // With an `after` anchor: the first `limit` after it; otherwise the latest `limit`. Oldest first.
      if (after)
        return this.#m.select(`${sql} ORDER BY created_at ASC, message_id ASC LIMIT ?`, [...params, limit]);
      return this.#m.select(`${sql} ORDER BY ${REVERSE_CHRONOLOGICAL} LIMIT ?`, [...params, limit]).reverse();
    });
  }

  override channelWindows(
    guildId: string,
    anchors: readonly WindowAnchor[],
    window: number,
  ): Promise<MessageWindow[]> {
    return this.#c.run(() => readWindows(this.#c, guildId, anchors, window));
  }

  override authorHistory(guildId: string, authorId: string, limit: number): Promise<StoredMessage[]> {
    return this.#c.run(() =>
      this.#m
        .select(
          `SELECT ${messageFields()} FROM messages WHERE guild_id = ? AND author_id = ? ORDER BY ${REVERSE_CHRONOLOGICAL} LIMIT ?`,
          [guildId, authorId, Math.max(0, Math.floor(limit))],
        )
        .reverse(),
    );
  }

  override channelStats(guildId: string, channelId: string): Promise<ChannelStats> {
    return this.#c.run(() => {
      const r = this.#c
        .stmt(
          `SELECT count(*) AS count, min(created_at) AS first_at, max(created_at) AS last_at,
             coalesce(sum(author_is_bot = 1 OR kind = 'reply'), 0) AS bot_messages,
             count(DISTINCT author_id) AS unique_authors
             FROM messages WHERE guild_id = ? AND channel_id = ?`,
        )
        .get(guildId, channelId) as {
        count: number;
        first_at: number | null;
        last_at: number | null;
        bot_messages: number;
        unique_authors: number;
      };
      return {
        count: r.count,
        firstAt: dateOrNull(r.first_at),
        lastAt: dateOrNull(r.last_at),
        botMessages: r.bot_messages,
        uniqueAuthors: r.unique_authors,
      };
    });
  }

  override async searchText(
    guildId: string,
    terms: readonly string[],
    limit: number,
    options: MessageTextSearchOptions = {},
  ): Promise<MessageTextHit[]> {
    const around = options.windowsAround ?? 0;
    const local = () => messageKeywordHits(this.#c, guildId, terms, limit, { windowsAround: around });
    const answered = await this.#c.run(() => {
      if (ftsMatchExpression(terms) === null || limit <= 0) return [];
      if (this.#m.indexBehind()) this.#c.atomic(() => this.#m.flushIndex());
      // Inside a write transaction only this connection sees what it wrote.
      const threaded =
        this.#thread.available &&
        !this.#c.writing &&
        this.#thread.serves(indexRowCount(this.#c, 'messages_fts'));
      return threaded ? null : local();
    });
    if (answered) return answered;
    try {
      return await this.#thread.search(guildId, terms, limit, around);
    } catch {
      return this.#c.run(local);
    }
  }

  override getMessages(guildId: string, messageIds: readonly string[]): Promise<StoredMessage[]> {
    return this.#c.run(() => {
      if (messageIds.length === 0) return [];
      const rows = this.#m.select(
        `SELECT ${messageFields()} FROM messages WHERE guild_id = ? AND message_id IN (SELECT value FROM json_each(?))`,
        [guildId, idList(messageIds)],
      );
      const byId = new Map(rows.map((m) => [m.messageId, m]));
      const out: StoredMessage[] = [];
      for (const id of messageIds) {
        const m = byId.get(id);
        if (m) out.push(m);
      }
      return out;
    });
  }

  override listMessages(guildId: string, query: MessageListQuery): Promise<StoredMessage[]> {
    return this.#c.run(() => this.#m.page(guildId, query));
  }

  override channelCounts(guildId: string): Promise<{ channelId: string; count: number }[]> {
    return this.#c.run(() => this.#m.channelCounts(guildId));
  }

  /**
   * Deletes the rows (any status), merges the message keyword index so no deleted term stays in a
   * segment leaf (`secure_delete` zeroes the freed pages), and truncates the WAL after the commit.
   */
  override async deleteMessages(guildId: string, messageIds: readonly string[]): Promise<number> {
    if (messageIds.length === 0) return 0;
    const n = await this.#c.write(() => {
      const gone = this.#m.deleteWhere('guild_id = ? AND message_id IN (SELECT value FROM json_each(?))', [
        guildId,
        idList(messageIds),
      ]);
      if (gone > 0) this.#c.stmt("INSERT INTO messages_fts (messages_fts) VALUES ('optimize')").run();
      return gone;
    });
    if (n > 0) await this.#c.run(() => this.#c.afterCommit(() => truncateWal(this.#c)));
    return n;
  }

  override trimChannel(guildId: string, channelId: string, keepLatest: number): Promise<number> {
    return this.#c.write(() =>
      this.#m.deleteWhere(
        `row_id IN (SELECT row_id FROM messages WHERE guild_id = ? AND channel_id = ?
           ORDER BY ${REVERSE_CHRONOLOGICAL} LIMIT -1 OFFSET ?)`,
        [guildId, channelId, Math.max(0, Math.floor(keepLatest))],
      ),
    );
  }

  override tryClaim(input: {
    readonly guildId: string;
    readonly channelId: string;
    readonly messageId: string;
    readonly owner: string;
    readonly now: Date;
    readonly ttlMs: number;
  }): Promise<boolean> {
    return this.#c.run(() => {
      const now = input.now.getTime();
      return (
        this.#c
          .stmt(
            `INSERT INTO reply_claims (guild_id, channel_id, message_id, owner, until) VALUES (?, ?, ?, ?, ?)
               ON CONFLICT (guild_id, channel_id, message_id) DO UPDATE SET owner = excluded.owner, until = excluded.until
               WHERE reply_claims.owner = excluded.owner OR reply_claims.until <= ?`,
          )
          .run(input.guildId, input.channelId, input.messageId, input.owner, now + input.ttlMs, now)
          .changes === 1
      );
    });
  }

  override releaseClaim(input: {
    readonly guildId: string;
    readonly channelId: string;
    readonly messageId: string;
    readonly owner: string;
  }) {
    return this.#c.run(
      () =>
        this.#c
          .stmt(
            'DELETE FROM reply_claims WHERE guild_id = ? AND channel_id = ? AND message_id = ? AND owner = ?',
          )
          .run(input.guildId, input.channelId, input.messageId, input.owner).changes > 0,
    );
  }

  override async upsertMode(mode: ActiveMode): Promise<void> {
    await this.#c.run(() =>
      this.#c
        .stmt(
          `INSERT OR REPLACE INTO active_modes (instance_id, guild_id, channel_id, mode, started_at, last_active_at)
             VALUES (?, ?, ?, ?, ?, ?)`,
        )
        .run(
          mode.instanceId,
          mode.guildId,
          mode.channelId,
          mode.mode,
          mode.startedAt.getTime(),
          mode.lastActiveAt.getTime(),
        ),
    );
  }

  override touchMode(key: ModeKey, at: Date): Promise<boolean> {
    return this.#c.run(
      () =>
        this.#c
          .stmt(
            'UPDATE active_modes SET last_active_at = ? WHERE instance_id = ? AND guild_id = ? AND channel_id = ?',
          )
          .run(at.getTime(), key.instanceId, key.guildId, key.channelId).changes > 0,
    );
  }

  override removeMode(key: ModeKey): Promise<boolean> {
    return this.#c.run(
      () =>
        this.#c
          .stmt('DELETE FROM active_modes WHERE instance_id = ? AND guild_id = ? AND channel_id = ?')
          .run(key.instanceId, key.guildId, key.channelId).changes > 0,
    );
  }

  override listModes(options: {
    readonly activeSince: Date;
    readonly instanceId?: string;
  }): Promise<ActiveMode[]> {
    return this.#c.run(() => {
      const instance = options.instanceId === undefined ? '' : ' AND instance_id = ?';
      const params: (string | number)[] = [options.activeSince.getTime()];
      if (options.instanceId !== undefined) params.push(options.instanceId);
      return (
        this.#c
          .stmt(
            `SELECT * FROM active_modes WHERE last_active_at >= ?${instance} ORDER BY last_active_at DESC`,
          )
          .all(...params) as ModeRow[]
      ).map(modeFromRow);
    });
  }
}
