import type Database from 'better-sqlite3';

/**
 * Pages of the fact keyword index merged when a writable file is opened: an index left in many
 * segments (each small write transaction adds one, and FTS5 merges them only after enough pages
 * were written) is brought back to one segment, up to this much work (~16 MB of index).
 */
export const OPEN_MERGE_PAGES = 4000;
/** Keyword rows written on a connection between two merges of the fact index. */
export const MERGE_EVERY_ROWS = 500;
/** Pages merged at most by one of those merges (~1 MB of index; tens of milliseconds at most). */
export const MERGE_PAGES = 256;

/**
 * Merges the segments of the fact keyword index into one, writing at most `pages` pages (a later
 * call goes on where this one stopped). A no-op on an index already in one segment. Scoped keyword
 * searches read every segment once per term: on a 10k-fact index, ten segments made them 1.5 to 1.8
 * times as slow as one. Results do not change: bm25 uses index-wide totals only.
 */
export function mergeKeywordIndex(db: Database.Database, pages: number): void {
  db.prepare("INSERT INTO facts_fts (facts_fts, rank) VALUES ('merge', ?)").run(-Math.max(1, pages));
}

/**
 * Whether the fact keyword index is in more than one segment (read from its `_idx` shadow table,
 * without the write lock: the merge statement takes it even when it has nothing to do).
 */
export function keywordIndexSplit(db: Database.Database): boolean {
  const row = db
    .prepare('SELECT count(*) AS n FROM (SELECT DISTINCT segid FROM facts_fts_idx LIMIT 2)')
    .get() as { n: number };
  return row.n > 1;
}
