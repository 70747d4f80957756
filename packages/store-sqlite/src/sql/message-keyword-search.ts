import type { StoredMessage } from '@permafrost/core';
import type { MessageTextHit } from '@permafrost/core/store';
import { readWindows } from '../channel-windows.js';
import type { SqliteConnection } from '../connection.js';
import type { IndexRanking, KeywordPostings } from '../keyword-postings/keyword-postings.js';
import { binaryCompare } from '../rows/codec.js';
import {
  AFTER_MESSAGE_FIELDS,
  MESSAGES_BY_ROW_ID,
  messageFields,
  messageFromRow,
  messageFromValues,
  rowFromValues,
} from '../rows/message-row.js';
import { rawRows } from '../rows/raw.js';
import { ftsFullMatchScore, indexRowCount } from './fts-full-match.js';
import { ftsMatchExpression } from './fts-query.js';

/** A searchable message row of the guild (the conditions the joined query filters on). */
const SEARCHABLE = "m.guild_id = ? AND m.raw_stored = 1 AND m.kind <> 'session'";

/** The reference ranking: every match joined to its message row, filtered, then sorted. */
export const JOINED_SEARCH = `SELECT ${messageFields('m')}, bm25(messages_fts) AS bm25 FROM messages_fts JOIN messages m ON m.row_id = messages_fts.rowid
  WHERE messages_fts MATCH ? AND ${SEARCHABLE} ORDER BY bm25 ASC, m.message_id ASC LIMIT ?`;
const INDEX_ONLY =
  'SELECT rowid, bm25(messages_fts) FROM messages_fts WHERE messages_fts MATCH ? ORDER BY 2 LIMIT ?';
const KEEP = `SELECT m.row_id, m.message_id FROM messages m
  WHERE m.row_id IN (SELECT value FROM json_each(?)) AND ${SEARCHABLE}`;
const GUILD_ROWS = 'SELECT coalesce(sum(n), 0) AS n FROM message_counts WHERE guild_id = ?';

/**
 * The index-first path ranks at most this many index rows per requested hit: past it (a guild
 * holding a small share of a shared file) the joined query is cheaper.
 */
const MAX_ROWS_PER_HIT = 8;
/** Index rows ranked per requested hit, over the guild's share of the index (margin for filtered rows). */
const ROWS_PER_HIT = 2;

export interface RankedMessage {
  readonly message: StoredMessage;
  readonly bm25: number;
}

/**
 * The `limit` best BM25 matches of `match` among the guild's searchable messages, best first,
 * ties by message id: exactly the rows and order of one query joining every match to its message
 * row (`JOINED_SEARCH`). Run inside one snapshot.
 *
 * That join reads the message row of every match to test its guild, before sorting: in a big
 * guild most of the search. Where the guild holds a large share of the index, the index is ranked
 * alone first (its best M rows, M sized to that share) and only those rows are read and filtered.
 * That answer is exact when the index had no further match, or when `limit` kept rows score
 * strictly better than the M-th ranked row (every row scoring better is among the M). Otherwise,
 * and for a guild with a small share, the joined query runs. With `ranking` (the read thread's copy
 * of the index) the guild's own rows are ranked, whatever its share, under the same check.
 */
export function searchMessageIndex(
  c: SqliteConnection,
  guildId: string,
  match: string,
  limit: number,
  ranking?: IndexRanking,
): RankedMessage[] {
  let depth: number;
  let ranked: [number, number][];
  if (ranking) {
    // The copy ranks the guild's own rows: only rows the store hides (a margin) are filtered below.
    depth = ROWS_PER_HIT * limit;
    ranked = ranking(depth, guildId);
  } else {
    const indexRows = indexRowCount(c, 'messages_fts');
    const guildRows = (c.stmt(GUILD_ROWS).get(guildId) as { n: number }).n;
    const share = indexRows > 0 ? Math.min(1, guildRows / indexRows) : 0;
    depth = share > 0 ? Math.ceil((ROWS_PER_HIT * limit) / share) : Number.POSITIVE_INFINITY;
    if (depth > MAX_ROWS_PER_HIT * limit) return joined(c, guildId, match, limit);
    ranked = rawRows(c.stmt(INDEX_ONLY), [match, depth]) as [number, number][];
  }
  const scores = new Map(ranked);
  const kept = (
    rawRows(c.stmt(KEEP), [JSON.stringify(ranked.map((r) => r[0])), guildId]) as [number, string][]
  )
    .map(([rowId, messageId]) => ({ rowId, messageId, bm25: scores.get(rowId) as number }))
    .sort((a, b) => a.bm25 - b.bm25 || binaryCompare(a.messageId, b.messageId))
    .slice(0, limit);
  const complete = ranked.length < depth;
  const worst = ranked.at(-1)?.[1] ?? Number.POSITIVE_INFINITY;
  if (!complete && (kept.length < limit || kept.some((k) => k.bm25 >= worst)))
    return joined(c, guildId, match, limit);
  const rows = new Map(
    rawRows(c.stmt(MESSAGES_BY_ROW_ID), [JSON.stringify(kept.map((k) => k.rowId))]).map((v) => {
      const row = rowFromValues(v);
      return [row.row_id, row];
    }),
  );
  return kept.flatMap((k) => {
    const row = rows.get(k.rowId);
    return row ? [{ message: messageFromRow(row), bm25: k.bm25 }] : [];
  });
}

function joined(c: SqliteConnection, guildId: string, match: string, limit: number): RankedMessage[] {
  return rawRows(c.stmt(JOINED_SEARCH), [match, guildId, limit]).map((v) => ({
    message: messageFromValues(v),
    bm25: v[AFTER_MESSAGE_FIELDS] as number,
  }));
}

/**
 * A message keyword search as `conversation.searchText` answers it: the ranked hits and the
 * full-match score, read in one snapshot (the full-match score counts the rows the ranking saw).
 * The caller has brought the index up to date. Runs on the store's connection or on the keyword
 * thread's (see read-thread/); with `postings` (the thread's in-memory copy of the index, when it
 * can rank these terms) the index rows are ranked from it instead of by FTS5, with the same result;
 * with `windowsAround`, the hits carry their windows, read in the same snapshot.
 */
export function messageKeywordHits(
  c: SqliteConnection,
  guildId: string,
  terms: readonly string[],
  limit: number,
  options: KeywordHitOptions = {},
): MessageTextHit[] {
  const match = ftsMatchExpression(terms);
  if (match === null || limit <= 0) return [];
  return c.snapshot(() => {
    const ranking = options.postings?.ranking(c, terms) ?? undefined;
    const rows = searchMessageIndex(c, guildId, match, Math.floor(limit), ranking);
    if (rows.length === 0) return [];
    const fullMatchScore = ftsFullMatchScore(c, 'messages_fts', terms);
    const around = Math.floor(options.windowsAround ?? 0);
    const windows =
      around > 0
        ? readWindows(
            c,
            guildId,
            rows.map((r) => ({ channelId: r.message.channelId, messageId: r.message.messageId })),
            around,
          )
        : [];
    return rows.map((r, i) => {
      const window = windows[i];
      return { message: r.message, score: -r.bm25, fullMatchScore, ...(window ? { window } : {}) };
    });
  });
}

/** How `messageKeywordHits` reads: from the thread's copy of the index, with the hits' windows. */
export interface KeywordHitOptions {
  readonly postings?: KeywordPostings | undefined;
  /** Read `channelWindows` of this size around every hit (`MessageTextSearchOptions`). */
  readonly windowsAround?: number | undefined;
}
