import type { Logger } from '@permafrost/core';
import type { ScopeGate } from '@permafrost/core/store';
import type Database from 'better-sqlite3';
import { closedError, toStoreError } from './errors.js';
import { openReadOnlyDatabase } from './read-only-open.js';
import { acquireGate, type TxScope } from './shared-gate.js';
import { openWritableDatabase } from './writable-open.js';
import { WriteUpkeep } from './write-upkeep.js';

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
  readonly #upkeep: WriteUpkeep;
  /** Open write transactions on this connection: a `transaction()` scope, `atomic` calls. */
  #scopeOpen = false;
  #atomicDepth = 0;
  readonly #committed: (() => void)[] = [];

  constructor(options: ConnectionOptions) {
    this.#options = options;
    const { gate, release } = acquireGate(options.path);
    this.#gate = gate;
    this.#releaseGate = release;
    this.#upkeep = new WriteUpkeep(options.path, options.logger);
  }

  /** Opens and migrates on first use; throws CLOSED after close(). */
  #ready(): Db {
    if (this.#closed) throw closedError();
    if (this.#db) return this.#db;
    const { path, busyTimeoutMs, logger } = this.#options;
    const db = this.#options.readOnly
      ? openReadOnlyDatabase(path, busyTimeoutMs)
      : openWritableDatabase(path, busyTimeoutMs, logger);
    this.#tx = db.transaction((fn: () => unknown) => fn());
    this.#db = db;
    return db;
  }

  log(
    level: 'debug' | 'info' | 'warn' | 'error',
    event: string,
    data?: Record<string, number | string>,
    error?: unknown,
  ) {
    this.#options.logger?.({
      level,
      event,
      ...(data ? { data } : {}),
      ...(error === undefined ? {} : { error }),
    });
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
      this.#upkeep.afterWrite(this.#db);
      if (!this.writing) this.#notifyCommitted();
      return result;
    });
  }

  /** Calls `fn` after each write transaction that `write` or `transaction` commits here. */
  onCommitted(fn: () => void): void {
    this.#committed.push(fn);
  }

  /** After the COMMIT succeeded: a failing listener is logged, never reported as a failed write. */
  #notifyCommitted(): void {
    for (const fn of this.#committed) {
      try {
        fn();
      } catch (error) {
        this.#options.logger?.({ level: 'warn', event: 'sqlite.after_commit_failed', error });
      }
    }
  }

  /** Runs fn atomically on the already-open connection (for use inside run/write). */
  atomic<T>(fn: () => T): T {
    this.#ready();
    this.#atomicDepth++;
    try {
      return this.#tx?.immediate(fn) as T;
    } finally {
      this.#atomicDepth--;
    }
  }

  /**
   * Whether a write transaction is open on this connection: what it reads may still be rolled
   * back, so nothing read now may outlive it (see FactCache).
   */
  get writing(): boolean {
    return this.#scopeOpen || this.#atomicDepth > 0;
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
        this.#scopeOpen = true;
      },
      commit: (scope) => {
        const db = this.#ready();
        try {
          db.exec('COMMIT');
        } catch (error) {
          this.#rollback();
          throw toStoreError(error);
        } finally {
          this.#scopeOpen = false;
        }
        this.#upkeep.afterCommit(this.#db);
        this.#notifyCommitted();
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
    this.#scopeOpen = false;
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
    await this.#upkeep.close();
    this.#releaseGate();
    this.#statements.clear();
    const db = this.#db;
    this.#db = null;
    this.#tx = null;
    if (db?.open) db.close();
  }
}
