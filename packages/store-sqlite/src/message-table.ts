import type { StoredMessage } from '@permafrost/core';
import { indexTerms, type MessageListQuery } from '@permafrost/core/store';
import type { SqliteConnection } from './connection.js';
import { MESSAGE_COLUMNS, messageFields, messageFromValues, messageParams } from './rows/message-row.js';
import { rawRows } from './rows/raw.js';
import { ftsDocument } from './sql/fts-query.js';
import type { VecTable } from './vec-table.js';

const INSERT_MESSAGE = `INSERT INTO messages (${MESSAGE_COLUMNS.join(', ')})
  VALUES (${MESSAGE_COLUMNS.map((c) => `@${c}`).join(', ')})`;

/** Rows whose raw content is searchable: stored raw, and not a private session entry. */
const searchable = (m: Pick<StoredMessage, 'rawStored' | 'kind'>) => m.rawStored && m.kind !== 'session';
/** The same test in SQL, over `messages` columns. */
const SEARCHABLE = "raw_stored = 1 AND kind <> 'session'";

/**
 * Writes to the one message table (queue + conversation history) that keep its keyword index and
 * message vectors in step. Synchronous: callers provide run/write. New and edited messages are
 * queued in `messages_fts_pending` and tokenised in bulk by `flushIndex`; keyword rows of deleted
 * messages are removed by the `messages_fts_delete` trigger.
 */
export class MessageTable {
  readonly #c: SqliteConnection;
  readonly #vec: VecTable;
  readonly #onRewrite: () => void;

  constructor(connection: SqliteConnection, vec: VecTable, onRewrite: () => void = () => {}) {
    this.#c = connection;
    this.#vec = vec;
    this.#onRewrite = onRewrite;
  }

  /** After the commit of a delete or an edit of messages (the read thread drops its index copy). */
  #rewritten(): void {
    this.#c.afterCommit(this.#onRewrite);
  }

  exists(guildId: string, messageId: string): boolean {
    return (
      this.#c.stmt('SELECT 1 FROM messages WHERE guild_id = ? AND message_id = ?').get(guildId, messageId) !==
      undefined
    );
  }

  pending(guildId: string): number {
    const row = this.#c
      .stmt("SELECT n FROM message_counts WHERE guild_id = ? AND status = 'pending'")
      .get(guildId) as { n: number } | undefined;
    return row?.n ?? 0;
  }

  /**
   * One plain row insert. A searchable row waits for the keyword index by having a row id above
   * `messages_fts_state.indexed_through`; nothing else is written for it here.
   */
  insert(m: StoredMessage): void {
    this.#c.stmt(INSERT_MESSAGE).run(messageParams(m));
  }

  #watermark(): number {
    const row = this.#c.stmt('SELECT indexed_through AS w FROM messages_fts_state WHERE id = 1').get() as
      | { w: number }
      | undefined;
    return row?.w ?? 0;
  }

  /**
   * Tokenises every message still waiting for the keyword index (new rows above the watermark and
   * edited rows below it), in one FTS5 write (one segment) rather than one per enqueue. Must run
   * inside a write transaction; returns rows indexed.
   */
  flushIndex(): number {
    if (!this.indexBehind()) return 0;
    const through = this.#watermark();
    const rows = this.#c
      .stmt(
        `SELECT row_id, content FROM messages WHERE row_id > ? AND ${SEARCHABLE}
         UNION ALL
         SELECT m.row_id, m.content FROM messages_fts_pending p JOIN messages m ON m.row_id = p.row_id
           WHERE p.row_id <= ? AND m.raw_stored = 1 AND m.kind <> 'session'
         ORDER BY 1`,
      )
      .all(through, through) as { row_id: number; content: string }[];
    const index = this.#c.stmt('INSERT INTO messages_fts (rowid, terms) VALUES (?, ?)');
    for (const r of rows) index.run(r.row_id, ftsDocument(indexTerms(r.content)));
    this.#c.stmt('DELETE FROM messages_fts_pending').run();
    this.#c
      .stmt('UPDATE messages_fts_state SET indexed_through = (SELECT coalesce(max(row_id), 0) FROM messages)')
      .run();
    return rows.length;
  }

  /** True when some messages wait for the keyword index. */
  indexBehind(): boolean {
    return (
      this.#c.stmt('SELECT 1 FROM messages WHERE row_id > ? LIMIT 1').get(this.#watermark()) !== undefined ||
      this.#c.stmt('SELECT 1 FROM messages_fts_pending LIMIT 1').get() !== undefined
    );
  }

  /** Records an edit: new content (raw rows only), truncation flag, edited; re-indexes the text. */
  markEdited(guildId: string, messageId: string, content: string, truncated: boolean): boolean {
    const row = this.#c
      .stmt('SELECT row_id, raw_stored, kind FROM messages WHERE guild_id = ? AND message_id = ?')
      .get(guildId, messageId) as
      | { row_id: number; raw_stored: number; kind: StoredMessage['kind'] }
      | undefined;
    if (!row) return false;
    const raw = row.raw_stored === 1;
    this.#c
      .stmt(
        `UPDATE messages SET content = CASE WHEN raw_stored = 1 THEN ? ELSE content END,
           content_truncated = ?, edited = 1 WHERE row_id = ?`,
      )
      .run(content, truncated ? 1 : 0, row.row_id);
    if (searchable({ rawStored: raw, kind: row.kind })) {
      // Deleting a rowid the index does not hold yet is a no-op for contentless_delete tables.
      this.#c.stmt('DELETE FROM messages_fts WHERE rowid = ?').run(row.row_id);
      // Not an append: readers that keep the index's postings start over (migration 13).
      this.#c.stmt('UPDATE messages_fts_state SET rewrites = rewrites + 1 WHERE id = 1').run();
      this.#rewritten();
      // A row above the watermark is still waiting and will be indexed with its new text anyway.
      if (row.row_id <= this.#watermark())
        this.#c.stmt('INSERT OR IGNORE INTO messages_fts_pending (row_id) VALUES (?)').run(row.row_id);
    }
    return true;
  }

  /**
   * Deletes the messages matching `where` (over table alias-free columns) with their vectors.
   * Returns the number of messages deleted.
   */
  deleteWhere(where: string, params: readonly (string | number | null)[]): number {
    const gone = this.#c
      .stmt(`DELETE FROM messages WHERE ${where} RETURNING guild_id, message_id, ${SEARCHABLE} AS indexed`)
      .all(...params) as { guild_id: string; message_id: string; indexed: number }[];
    const byGuild = new Map<string, string[]>();
    for (const g of gone) {
      const ids = byGuild.get(g.guild_id) ?? [];
      ids.push(g.message_id);
      byGuild.set(g.guild_id, ids);
    }
    for (const [guildId, ids] of byGuild) this.#vec.delete(guildId, 'message', ids);
    // Session entries (trimmed on every append past the cap) were never in the keyword index.
    if (gone.some((g) => g.indexed === 1)) this.#rewritten();
    return gone.length;
  }

  /** One page of the guild's rows, oldest first by (created_at, message_id), narrowed by the query. */
  page(guildId: string, query: MessageListQuery): StoredMessage[] {
    const where = ['guild_id = ?'];
    const params: (string | number)[] = [guildId];
    if (query.channelId !== undefined) {
      where.push('channel_id = ?');
      params.push(query.channelId);
    }
    if (query.authorId !== undefined) {
      where.push('author_id = ?');
      params.push(query.authorId);
    }
    if (query.createdBefore !== undefined) {
      where.push('created_at < ?');
      params.push(query.createdBefore.getTime());
    }
    if (query.after !== undefined) {
      where.push('(created_at > ? OR (created_at = ? AND message_id > ?))');
      const at = query.after.createdAt.getTime();
      params.push(at, at, query.after.messageId);
    }
    return this.select(
      `SELECT ${messageFields()} FROM messages WHERE ${where.join(' AND ')} ORDER BY created_at, message_id LIMIT ?`,
      [...params, Math.max(0, Math.floor(query.limit))],
    );
  }

  /** Rows per channel of the guild (any status or kind). */
  channelCounts(guildId: string): { channelId: string; count: number }[] {
    return (
      this.#c
        .stmt('SELECT channel_id, count(*) AS n FROM messages WHERE guild_id = ? GROUP BY channel_id')
        .all(guildId) as { channel_id: string; n: number }[]
    ).map((r) => ({ channelId: r.channel_id, count: r.n }));
  }

  /** The messages of a read of `messageFields()` (raw rows, see messageFromValues). */
  select(sql: string, params: readonly (string | number | null)[]): StoredMessage[] {
    return rawRows(this.#c.stmt(sql), params).map(messageFromValues);
  }
}
