import type { Database } from 'better-sqlite3';

/** One numbered schema step. `up` runs inside the migration transaction and must not commit. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  up(db: Database): void;
}
