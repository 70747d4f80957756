import type { MessageWindow, WindowAnchor } from '@permafrost/core/store';
import type { SqliteConnection } from './connection.js';
import type { MessageTable } from './message-table.js';
import { REVERSE_CHRONOLOGICAL } from './rows/message-row.js';

const ANCHOR =
  'SELECT created_at, message_id FROM messages WHERE guild_id = ? AND channel_id = ? AND message_id = ?';
const BEFORE = `SELECT * FROM messages WHERE guild_id = ? AND channel_id = ?
  AND (created_at < ? OR (created_at = ? AND message_id < ?)) ORDER BY ${REVERSE_CHRONOLOGICAL} LIMIT ?`;
const AFTER = `SELECT * FROM messages WHERE guild_id = ? AND channel_id = ?
  AND (created_at > ? OR (created_at = ? AND message_id > ?)) ORDER BY created_at ASC, message_id ASC LIMIT ?`;
const LATEST = `SELECT * FROM messages WHERE guild_id = ? AND channel_id = ? ORDER BY ${REVERSE_CHRONOLOGICAL} LIMIT ?`;

/**
 * The windows around many anchors in one synchronous pass (the caller runs it inside one
 * connection turn), with the same rows `channelHistory` gives for each side: an unknown anchor
 * has nothing after it and, before it, the channel's latest messages.
 */
export function readWindows(
  c: SqliteConnection,
  m: MessageTable,
  guildId: string,
  anchors: readonly WindowAnchor[],
  window: number,
): MessageWindow[] {
  const limit = Math.max(0, Math.floor(window));
  const anchorOf = c.stmt(ANCHOR);
  return anchors.map((a) => {
    const at = anchorOf.get(guildId, a.channelId, a.messageId) as
      | { created_at: number; message_id: string }
      | undefined;
    if (!at) return { before: m.select(LATEST, [guildId, a.channelId, limit]).reverse(), after: [] };
    const pos = [at.created_at, at.created_at, at.message_id];
    return {
      before: m.select(BEFORE, [guildId, a.channelId, ...pos, limit]).reverse(),
      after: m.select(AFTER, [guildId, a.channelId, ...pos, limit]),
    };
  });
}
