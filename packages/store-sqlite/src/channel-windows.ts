import type { StoredMessage } from '@permafrost/core';
import type { MessageWindow, WindowAnchor } from '@permafrost/core/store';
import type { SqliteConnection } from './connection.js';
import { binaryCompare } from './rows/codec.js';
import {
  MESSAGES_BY_ROW_ID,
  messageFromRow,
  REVERSE_CHRONOLOGICAL,
  rowFromValues,
} from './rows/message-row.js';
import { rawRows } from './rows/raw.js';

/** Where a message sits in its channel (`created_at`, `message_id`); no row when it is not there. */
export const ANCHOR_SQL =
  'SELECT created_at, message_id FROM messages WHERE guild_id = ? AND channel_id = ? AND message_id = ?';
/** Rows strictly before / after a position (bound as created_at, created_at, message_id). */
export const BEFORE_POSITION = '(created_at < ? OR (created_at = ? AND message_id < ?))';
export const AFTER_POSITION = '(created_at > ? OR (created_at = ? AND message_id > ?))';

/** Which side of its anchor a windowed row sits on (the anchor's own row says it was found). */
const ANCHOR = 0;
const BEFORE = 1;
const AFTER = 2;

// Every anchor in one statement (bound as @guild, @anchors: a JSON array of [channel, message],
// @limit): a statement per anchor and side cost more in calls than in index reads. Each side is a
// correlated subquery over the channel index (row ids only, so no table reads); row-value
// positions keep each side one index range. The anchor's own row says it was found. The anchors
// are looked up once (MATERIALIZED): inlined, each of the three parts looked them up again.
const WINDOW_IDS = `WITH a AS MATERIALIZED (
    SELECT j.key AS i, m.row_id AS row_id, m.channel_id AS c, m.created_at AS t, m.message_id AS id
    FROM json_each(@anchors) j
    JOIN messages m ON m.guild_id = @guild AND m.message_id = j.value ->> 1 AND m.channel_id = j.value ->> 0
  )
  SELECT i, ${ANCHOR}, row_id FROM a
  UNION ALL
  SELECT a.i, ${BEFORE}, x.row_id FROM a JOIN messages x ON x.row_id IN (
    SELECT row_id FROM messages WHERE guild_id = @guild AND channel_id = a.c AND (created_at, message_id) < (a.t, a.id)
    ORDER BY ${REVERSE_CHRONOLOGICAL} LIMIT @limit)
  UNION ALL
  SELECT a.i, ${AFTER}, x.row_id FROM a JOIN messages x ON x.row_id IN (
    SELECT row_id FROM messages WHERE guild_id = @guild AND channel_id = a.c AND (created_at, message_id) > (a.t, a.id)
    ORDER BY created_at ASC, message_id ASC LIMIT @limit)`;
/** The channel's latest rows: what comes before an anchor that is not there. */
const LATEST_IDS = `SELECT row_id FROM messages WHERE guild_id = ? AND channel_id = ? ORDER BY ${REVERSE_CHRONOLOGICAL} LIMIT ?`;

const chronological = (a: StoredMessage, b: StoredMessage) =>
  a.createdAt.getTime() - b.createdAt.getTime() || binaryCompare(a.messageId, b.messageId);

/**
 * The windows around many anchors in one synchronous pass (the caller runs it inside one
 * connection turn) and one snapshot, with the same rows `channelHistory` gives for each side: an
 * unknown anchor has nothing after it and, before it, the channel's latest messages. The rows of
 * every window are read once (neighbouring anchors share most of their windows).
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
    const sides = anchors.map(() => ({ found: false, before: [] as number[], after: [] as number[] }));
    const rows = rawRows(c.stmt(WINDOW_IDS), [
      { guild: guildId, anchors: JSON.stringify(anchors.map((a) => [a.channelId, a.messageId])), limit },
    ]) as [number, number, number][];
    for (const [i, side, rowId] of rows) {
      const s = sides[i];
      if (!s) continue;
      if (side === ANCHOR) s.found = true;
      else (side === BEFORE ? s.before : s.after).push(rowId);
    }
    for (const [i, s] of sides.entries())
      if (!s.found)
        s.before = c.stmt(LATEST_IDS).pluck(true).all(guildId, anchors[i]?.channelId, limit) as number[];
    const wanted = new Set<number>();
    for (const s of sides) for (const id of [...s.before, ...s.after]) wanted.add(id);
    const byRow = new Map<number, StoredMessage>();
    if (wanted.size > 0) {
      for (const v of rawRows(c.stmt(MESSAGES_BY_ROW_ID), [JSON.stringify([...wanted])])) {
        const r = rowFromValues(v);
        byRow.set(r.row_id, messageFromRow(r));
      }
    }
    const pick = (list: readonly number[]) =>
      list
        .map((id) => byRow.get(id))
        .filter((x): x is StoredMessage => x !== undefined)
        .sort(chronological);
    return sides.map((s) => ({ before: pick(s.before), after: pick(s.after) }));
  });
}
