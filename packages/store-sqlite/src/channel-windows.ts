import type { StoredMessage } from '@permafrost/core';
import type { MessageWindow, WindowAnchor } from '@permafrost/core/store';
import type { SqliteConnection } from './connection.js';
import {
  MESSAGES_BY_ROW_ID,
  type MessageRow,
  messageFromRow,
  REVERSE_CHRONOLOGICAL,
} from './rows/message-row.js';

/** Where a message sits in its channel (`created_at`, `message_id`); no row when it is not there. */
export const ANCHOR_SQL =
  'SELECT created_at, message_id FROM messages WHERE guild_id = ? AND channel_id = ? AND message_id = ?';
/** Rows strictly before / after a position (bound as created_at, created_at, message_id). */
export const BEFORE_POSITION = '(created_at < ? OR (created_at = ? AND message_id < ?))';
export const AFTER_POSITION = '(created_at > ? OR (created_at = ? AND message_id > ?))';

// Row ids only: the channel index covers them, so a window costs no table reads; the rows of every
// window are then read once (neighbouring anchors share most of their windows). Row-value
// positions keep each side one index range.
const CHANNEL_IDS = 'SELECT row_id FROM messages WHERE guild_id = ? AND channel_id = ?';
const BEFORE_IDS = `${CHANNEL_IDS} AND (created_at, message_id) < (?, ?) ORDER BY ${REVERSE_CHRONOLOGICAL} LIMIT ?`;
const AFTER_IDS = `${CHANNEL_IDS} AND (created_at, message_id) > (?, ?) ORDER BY created_at ASC, message_id ASC LIMIT ?`;
const LATEST_IDS = `${CHANNEL_IDS} ORDER BY ${REVERSE_CHRONOLOGICAL} LIMIT ?`;

/**
 * The windows around many anchors in one synchronous pass (the caller runs it inside one
 * connection turn) and one snapshot, with the same rows `channelHistory` gives for each side: an
 * unknown anchor has nothing after it and, before it, the channel's latest messages.
 */
export function readWindows(
  c: SqliteConnection,
  guildId: string,
  anchors: readonly WindowAnchor[],
  window: number,
): MessageWindow[] {
  const limit = Math.max(0, Math.floor(window));
  if (anchors.length === 0) return [];
  return c.snapshot(() => {
    const anchorOf = c.stmt(ANCHOR_SQL);
    const ids = (sql: string, params: readonly (string | number)[]) =>
      c
        .stmt(sql)
        .pluck(true)
        .all(...params) as number[];
    const sides = anchors.map((a) => {
      const at = anchorOf.get(guildId, a.channelId, a.messageId) as
        | { created_at: number; message_id: string }
        | undefined;
      if (!at) return { before: ids(LATEST_IDS, [guildId, a.channelId, limit]).reverse(), after: [] };
      const pos = [at.created_at, at.message_id];
      return {
        before: ids(BEFORE_IDS, [guildId, a.channelId, ...pos, limit]).reverse(),
        after: ids(AFTER_IDS, [guildId, a.channelId, ...pos, limit]),
      };
    });
    const wanted = new Set<number>();
    for (const s of sides) for (const id of [...s.before, ...s.after]) wanted.add(id);
    const byRow = new Map<number, StoredMessage>();
    if (wanted.size > 0) {
      for (const r of c.stmt(MESSAGES_BY_ROW_ID).all(JSON.stringify([...wanted])) as MessageRow[])
        byRow.set(r.row_id, messageFromRow(r));
    }
    const pick = (list: readonly number[]) =>
      list.map((id) => byRow.get(id)).filter((x): x is StoredMessage => x !== undefined);
    return sides.map((s) => ({ before: pick(s.before), after: pick(s.after) }));
  });
}
