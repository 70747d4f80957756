import type { SqliteConnection } from './connection.js';

/**
 * Copies the WAL into the main file and truncates it, so no deleted bytes stay in the log. Call
 * after the deleting transaction commits (a reader holding an old snapshot makes it busy: logged).
 */
export function truncateWal(c: SqliteConnection): void {
  const [result] = c.db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
  if (result?.busy) c.log('warn', 'sqlite.checkpoint_busy');
}
