import { statSync } from 'node:fs';
import type { Logger } from '@permafrost/core';
import type Database from 'better-sqlite3';
import { isInMemoryPath } from './open-file.js';
import { WalCheckpointer } from './wal-checkpointer.js';

type Db = Database.Database;

/** Atomic writes between `PRAGMA optimize` runs (cheap when statistics are still fresh). */
const OPTIMIZE_EVERY_WRITES = 5000;
/** WAL pages between checkpoints the writer runs itself (~16 MB of WAL). */
export const AUTOCHECKPOINT_PAGES = 4000;
/** Commits after which a busy file gets a background checkpointer (short-lived stores never do). */
const CHECKPOINTER_AFTER_COMMITS = 2000;
/** Commits between background checkpoint requests (~9 WAL frames per enqueued message). */
const CHECKPOINT_EVERY_COMMITS = 256;
/** WAL size past which the writer copies the last few frames itself so the WAL can restart. */
export const LARGE_WAL_BYTES = 64 * 1024 * 1024;

/**
 * Upkeep after commits on a writable connection: a background checkpointer once the file is busy
 * (the writer checkpoints itself until it is ready, and again if it fails), the WAL tail copied
 * here when it has grown large, and `PRAGMA optimize` now and then as tables grow.
 */
export class WriteUpkeep {
  readonly #path: string;
  readonly #logger: Logger | undefined;
  #writes = 0;
  #optimizeDue = false;
  #commits = 0;
  #checkpointer: WalCheckpointer | null = null;
  #checkpointerTried = false;
  #handedOver = false;
  #passesSeen = 0;

  constructor(path: string, logger: Logger | undefined) {
    this.#path = path;
    this.#logger = logger;
  }

  /**
   * After a commit: background checkpoints for busy files, and planner statistics refreshed now and
   * then as tables grow (outside any transaction).
   */
  afterWrite(db: Db | null): void {
    this.afterCommit(db);
    if (++this.#writes >= OPTIMIZE_EVERY_WRITES) this.#optimizeDue = true;
    if (!this.#optimizeDue || !db || db.inTransaction) return;
    this.#writes = 0;
    this.#optimizeDue = false;
    try {
      db.pragma('optimize');
    } catch (error) {
      this.#logger?.({ level: 'warn', event: 'sqlite.optimize_failed', error });
    }
  }

  /** After a commit (a write, or a `transaction()` scope): checkpoint hand-off and WAL size. */
  afterCommit(db: Db | null): void {
    if (!db || db.inTransaction) return;
    this.#commits++;
    const worker = this.#checkpointer;
    if (!worker) {
      if (this.#commits >= CHECKPOINTER_AFTER_COMMITS && !this.#checkpointerTried)
        this.#startCheckpointer(db);
      return;
    }
    const state = worker.state;
    if (state === 'failed') {
      this.#checkpointer = null;
      db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
      this.#logger?.({ level: 'warn', event: 'sqlite.checkpointer_lost' });
      void worker.close();
      return;
    }
    if (state !== 'ready') return;
    if (!this.#handedOver) {
      this.#handedOver = true;
      db.pragma('wal_autocheckpoint = 0');
    }
    if (worker.passes !== this.#passesSeen) {
      this.#passesSeen = worker.passes;
      // Frames committed during the pass keep the WAL from starting over; past 64 MB the writer
      // copies that short tail itself, and the next transaction restarts (and trims) the WAL.
      if ((statSync(`${this.#path}-wal`, { throwIfNoEntry: false })?.size ?? 0) >= LARGE_WAL_BYTES)
        this.#checkpointHere(db);
    }
    if (this.#commits % CHECKPOINT_EVERY_COMMITS === 0) worker.request();
  }

  /** Hands checkpoints to a worker thread; on any failure the writer keeps doing them itself. */
  #startCheckpointer(db: Db): void {
    this.#checkpointerTried = true;
    if (isInMemoryPath(this.#path) || db.readonly) return;
    try {
      this.#checkpointer = new WalCheckpointer(this.#path);
    } catch (error) {
      this.#logger?.({ level: 'warn', event: 'sqlite.checkpointer_failed', error });
    }
  }

  /** Copies the frames the background pass could not (they landed while it ran), on this thread. */
  #checkpointHere(db: Db): void {
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
    } catch (error) {
      this.#logger?.({ level: 'warn', event: 'sqlite.checkpoint_failed', error });
    }
  }

  /** Stops the background checkpointer, if one runs. */
  async close(): Promise<void> {
    const checkpointer = this.#checkpointer;
    this.#checkpointer = null;
    if (checkpointer) await checkpointer.close();
  }
}
