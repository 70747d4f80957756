import { statSync } from 'node:fs';
import { ErrorCode, type Logger, MemoryError } from '@permafrost/core';
import type { ScopeGate } from '@permafrost/core/store';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { closedError, toStoreError } from './errors.js';
import { migrateDatabase } from './migrations/index.js';
import { ensureParentFolder, isInMemoryPath, openError } from './open-file.js';
import { openReadOnlyDatabase } from './read-only-open.js';
import { acquireGate, type TxScope } from './shared-gate.js';
import { WalCheckpointer } from './wal-checkpointer.js';

type Db = Database.Database;
type Statement = Database.Statement;

export interface ConnectionOptions {
  readonly path: string;
  readonly busyTimeoutMs: number;
  readonly logger?: Logger | undefined;
  /** Existing file, reads only: nothing is created or migrated (see openReadOnlyDatabase). */
  readonly readOnly?: boolean | undefined;
}

/**
 * Loads sqlite-vec: the extension bundled with the `sqlite-vec` package, or the file named by
 * `PERMAFROST_SQLITE_VEC_PATH` (for platforms without a prebuilt binary). A failure is
 * BACKEND_NOT_INSTALLED, naming the extension, never a generic storage error.
 */
export function loadVectorExtension(db: Db): void {
  const override = process.env['PERMAFROST_SQLITE_VEC_PATH'];
  try {
    if (override) db.loadExtension(override);
    else sqliteVec.load(db);
  } catch (cause) {
    throw new MemoryError(
      ErrorCode.BACKEND_NOT_INSTALLED,
      'the sqlite-vec extension could not be loaded (reinstall sqlite-vec or set PERMAFROST_SQLITE_VEC_PATH)',
      { cause },
    );
  }
}

/** Atomic writes between `PRAGMA optimize` runs (cheap when statistics are still fresh). */
const OPTIMIZE_EVERY_WRITES = 5000;
/** WAL pages between checkpoints the writer runs itself (~16 MB of WAL). */
const AUTOCHECKPOINT_PAGES = 4000;
/** Commits after which a busy file gets a background checkpointer (short-lived stores never do). */
const CHECKPOINTER_AFTER_COMMITS = 2000;
/** Commits between background checkpoint requests (~9 WAL frames per enqueued message). */
const CHECKPOINT_EVERY_COMMITS = 256;
/** WAL size past which the writer copies the last few frames itself so the WAL can restart. */
const LARGE_WAL_BYTES = 64 * 1024 * 1024;

/**
 * The one better-sqlite3 connection of a store object: opened (and migrated) lazily, statements
 * cached, every port call serialised against open `transaction()` scopes (of every store object on
 * the same file in this process), driver errors mapped.
 */
export class SqliteConnection {
  readonly #options: ConnectionOptions;
  readonly #gate: ScopeGate<TxScope>;
  readonly #releaseGate: () => void;
  readonly #statements = new Map<string, Statement>();
  #db: Db | null = null;
  #closed = false;
  /** better-sqlite3's transaction wrapper: BEGIN … COMMIT, or a savepoint inside an open one. */
  #tx: Database.Transaction<(fn: () => unknown) => unknown> | null = null;
  #writes = 0;
  #optimizeDue = false;
  #commits = 0;
  #checkpointer: WalCheckpointer | null = null;
  #checkpointerTried = false;
  #handedOver = false;
  #passesSeen = 0;

  constructor(options: ConnectionOptions) {
    this.#options = options;
    const { gate, release } = acquireGate(options.path);
    this.#gate = gate;
    this.#releaseGate = release;
  }

  /** Opens and migrates on first use; throws CLOSED after close(). */
  #ready(): Db {
    if (this.#closed) throw closedError();
    if (this.#db) return this.#db;
    const path = this.#options.path;
    if (this.#options.readOnly) {
      const db = openReadOnlyDatabase(path, this.#options.busyTimeoutMs);
      this.#tx = db.transaction((fn: () => unknown) => fn());
      this.#db = db;
      return db;
    }
    ensureParentFolder(path);
    let db: Db;
    try {
      db = new Database(path, { timeout: this.#options.busyTimeoutMs });
    } catch (error) {
      throw openError(path, error);
    }
    try {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
      db.pragma('secure_delete = ON');
      db.pragma('temp_store = MEMORY');
      db.pragma('cache_size = -32768');
      db.pragma('mmap_size = 33554432'); // mapped file pages count in RSS: map at most 32 MiB
      // Until a background checkpointer takes over (busy files only), the writer checkpoints every
      // 4000 pages (~16 MB of WAL) instead of 1000; a WAL left larger than 64 MB is cut back on reset.
      db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
      db.pragma(`journal_size_limit = ${LARGE_WAL_BYTES}`);
      loadVectorExtension(db);
      const result = migrateDatabase(db);
      if (result.to !== result.from)
        this.log('info', 'sqlite.migrated', { from: result.from, to: result.to });
      // Planner statistics: bounded ANALYZE of tables whose stats are missing or stale. Only an
      // optimisation: a read-only file (or a busy one) is still opened for reading without it.
      db.pragma('analysis_limit = 400');
      try {
        db.pragma('optimize = 0x10002');
      } catch (error) {
        this.#options.logger?.({ level: 'warn', event: 'sqlite.optimize_failed', error });
      }
    } catch (error) {
      db.close();
      throw openError(path, error);
    }
    this.#tx = db.transaction((fn: () => unknown) => fn());
    this.#db = db;
    return db;
  }

  log(level: 'debug' | 'info' | 'warn' | 'error', event: string, data?: Record<string, number | string>) {
    this.#options.logger?.({ level, event, ...(data ? { data } : {}) });
  }

  /** A cached prepared statement. */
  stmt(sql: string): Statement {
    let s = this.#statements.get(sql);
    if (!s) {
      s = this.#ready().prepare(sql);
      this.#statements.set(sql, s);
    }
    return s;
  }

  /** The raw handle (open). For pragmas and DDL that is not worth caching. */
  get db(): Db {
    return this.#ready();
  }

  /**
   * Runs synchronous work on the connection once no foreign transaction scope is open. Nothing
   * may await inside `fn`: that is what keeps it from interleaving with another scope.
   */
  async run<T>(fn: () => T): Promise<T> {
    const wait = this.#gate.wait();
    if (wait) await wait;
    try {
      this.#ready();
      return fn();
    } catch (error) {
      throw toStoreError(error);
    }
  }

  /** Like run, atomically: BEGIN IMMEDIATE … COMMIT, or a savepoint inside an open transaction. */
  write<T>(fn: () => T): Promise<T> {
    return this.run(() => {
      const result = this.atomic(fn);
      this.#afterWrite();
      return result;
    });
  }

  /**
   * After a commit: background checkpoints for busy files, and planner statistics refreshed now and
   * then as tables grow (outside any transaction).
   */
  #afterWrite(): void {
    this.#afterCommit();
    if (++this.#writes >= OPTIMIZE_EVERY_WRITES) this.#optimizeDue = true;
    const db = this.#db;
    if (!this.#optimizeDue || !db || db.inTransaction) return;
    this.#writes = 0;
    this.#optimizeDue = false;
    try {
      db.pragma('optimize');
    } catch (error) {
      this.#options.logger?.({ level: 'warn', event: 'sqlite.optimize_failed', error });
    }
  }

  #afterCommit(): void {
    const db = this.#db;
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
      this.log('warn', 'sqlite.checkpointer_lost');
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
      if ((statSync(`${this.#options.path}-wal`, { throwIfNoEntry: false })?.size ?? 0) >= LARGE_WAL_BYTES)
        this.#checkpointHere(db);
    }
    if (this.#commits % CHECKPOINT_EVERY_COMMITS === 0) worker.request();
  }

  /** Hands checkpoints to a worker thread; on any failure the writer keeps doing them itself. */
  #startCheckpointer(db: Db): void {
    this.#checkpointerTried = true;
    if (isInMemoryPath(this.#options.path) || db.readonly) return;
    try {
      this.#checkpointer = new WalCheckpointer(this.#options.path);
    } catch (error) {
      this.#options.logger?.({ level: 'warn', event: 'sqlite.checkpointer_failed', error });
    }
  }

  /** Copies the frames the background pass could not (they landed while it ran), on this thread. */
  #checkpointHere(db: Db): void {
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
    } catch (error) {
      this.#options.logger?.({ level: 'warn', event: 'sqlite.checkpoint_failed', error });
    }
  }

  /** Runs fn atomically on the already-open connection (for use inside run/write). */
  atomic<T>(fn: () => T): T {
    this.#ready();
    return this.#tx?.immediate(fn) as T;
  }

  /** Runs read-only fn in one deferred transaction (a consistent snapshot), or inside the open one. */
  snapshot<T>(fn: () => T): T {
    this.#ready();
    return this.#tx?.deferred(fn) as T;
  }

  /** Queues work for after the enclosing transaction commits (now, when none is open). */
  afterCommit(fn: () => void): void {
    const scope = this.#gate.current();
    if (scope) scope.afterCommit.push(fn);
    else fn();
  }

  transaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.#gate.run<T>(() => ({ afterCommit: [] }), fn, {
      begin: () => {
        try {
          this.#ready().exec('BEGIN IMMEDIATE');
        } catch (error) {
          throw toStoreError(error);
        }
      },
      commit: (scope) => {
        const db = this.#ready();
        try {
          db.exec('COMMIT');
        } catch (error) {
          this.#rollback();
          throw toStoreError(error);
        }
        this.#afterCommit();
        for (const task of scope.afterCommit) {
          try {
            task();
          } catch (error) {
            this.#options.logger?.({ level: 'warn', event: 'sqlite.after_commit_failed', error });
          }
        }
      },
      rollback: () => this.#rollback(),
    });
  }

  /** Rolls back the open transaction, if SQLite has not already done so. */
  #rollback(): void {
    const db = this.#db;
    if (!db?.inTransaction) return;
    try {
      db.exec('ROLLBACK');
    } catch (error) {
      this.#options.logger?.({ level: 'error', event: 'sqlite.rollback_failed', error });
    }
  }

  async close(): Promise<void> {
    const wait = this.#gate.wait();
    if (wait) await wait;
    if (this.#closed) return;
    this.#closed = true;
    const checkpointer = this.#checkpointer;
    this.#checkpointer = null;
    if (checkpointer) await checkpointer.close();
    this.#releaseGate();
    this.#statements.clear();
    const db = this.#db;
    this.#db = null;
    this.#tx = null;
    if (db?.open) db.close();
  }
}
