import type { MessageWindow, WindowAnchor } from '@permafrost/core/store';
import type { SqliteConnection } from './connection.js';
import type { MessageTable } from './message-table.js';
import { REVERSE_CHRONOLOGICAL } from './rows/message-row.js';

/** Where a message sits in its channel (`created_at`, `message_id`); no row when it is not there. */
export const ANCHOR_SQL =
  'SELECT created_at, message_id FROM messages WHERE guild_id = ? AND channel_id = ? AND message_id = ?';
/** Rows strictly before / after a position (bound as created_at, created_at, message_id). */
export const BEFORE_POSITION = '(created_at < ? OR (created_at = ? AND message_id < ?))';
export const AFTER_POSITION = '(created_at > ? OR (created_at = ? AND message_id > ?))';

const CHANNEL = 'SELECT * FROM messages WHERE guild_id = ? AND channel_id = ?';
const BEFORE = `${CHANNEL} AND ${BEFORE_POSITION} ORDER BY ${REVERSE_CHRONOLOGICAL} LIMIT ?`;
const AFTER = `${CHANNEL} AND ${AFTER_POSITION} ORDER BY created_at ASC, message_id ASC LIMIT ?`;
const LATEST = `${CHANNEL} ORDER BY ${REVERSE_CHRONOLOGICAL} LIMIT ?`;

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
  const anchorOf = c.stmt(ANCHOR_SQL);
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
