import type Database from 'better-sqlite3';

/**
 * Every row as an array of column values (better-sqlite3's raw mode). For wide rows the driver's
 * named-column object per row costs more than the query itself; callers map values by position.
 * The statement is handed back in its default (object) mode, since statements are shared by SQL text.
 */
export function rawRows(stmt: Database.Statement, params: readonly unknown[]): unknown[][] {
  stmt.raw(true);
  try {
    return stmt.all(...params) as unknown[][];
  } finally {
    stmt.raw(false);
  }
}
