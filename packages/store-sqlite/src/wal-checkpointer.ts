import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Runs WAL checkpoints on a worker thread with its own connection, so copying WAL frames back into
 * the database file does not stall the writer's thread (better-sqlite3 is synchronous: an automatic
 * checkpoint runs inside whichever commit crosses the threshold).
 *
 * Writer and worker talk through shared memory only, never through messages: a writer awaiting
 * one write after another runs on microtasks and may not return to the event loop for a long time,
 * and the hand-off must keep working then. The writer bumps a request counter and wakes the worker;
 * the worker runs a PASSIVE checkpoint (never blocks writers or readers) and counts its passes.
 * A pass cannot copy frames committed while it runs, and as long as some frame is left the WAL
 * cannot start over; the writer finishes the tail itself when the file has grown large.
 */

/** Slots of the shared Int32Array. */
const STATE = {
  request: 0,
  ready: 1,
  busy: 2,
  failed: 3,
  close: 4,
  passes: 5,
} as const;
const SLOTS = 6;

/** The worker: CommonJS, evaluated; loads the same better-sqlite3 build as the store. */
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const S = ${JSON.stringify(STATE)};
const state = new Int32Array(workerData.state);
let db;
try {
  const Database = require(workerData.driver);
  db = new Database(workerData.path, { fileMustExist: true, timeout: 0 });
  Atomics.store(state, S.ready, 1);
  let seen = 0;
  for (;;) {
    Atomics.wait(state, S.request, seen);
    seen = Atomics.load(state, S.request);
    if (Atomics.load(state, S.close) === 1) break;
    db.pragma('wal_checkpoint(PASSIVE)');
    Atomics.add(state, S.passes, 1);
    Atomics.store(state, S.busy, 0);
  }
} catch {
  Atomics.store(state, S.failed, 1);
} finally {
  if (db && db.open) db.close();
}
`;

let driverPath: string | undefined;
function resolveDriver(): string {
  driverPath ??= createRequire(import.meta.url).resolve('better-sqlite3');
  return driverPath;
}

/** What the writer sees of the worker, read synchronously. */
export type CheckpointerState = 'starting' | 'ready' | 'failed';

export class WalCheckpointer {
  readonly #worker: Worker;
  readonly #state = new Int32Array(new SharedArrayBuffer(SLOTS * Int32Array.BYTES_PER_ELEMENT));
  #exited = false;
  readonly #exit: Promise<void>;

  constructor(path: string) {
    this.#worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { driver: resolveDriver(), path, state: this.#state.buffer },
    });
    // Never keeps the process alive on its own; close() ends it.
    this.#worker.unref();
    this.#exit = new Promise<void>((resolve) => {
      this.#worker.once('exit', () => {
        this.#exited = true;
        resolve();
      });
    });
    // A thread that dies shows as failed through the shared state or the exit flag; the error
    // itself carries nothing the writer can act on.
    this.#worker.on('error', () => Atomics.store(this.#state, STATE.failed, 1));
  }

  get state(): CheckpointerState {
    if (this.#exited || Atomics.load(this.#state, STATE.failed) === 1) return 'failed';
    return Atomics.load(this.#state, STATE.ready) === 1 ? 'ready' : 'starting';
  }

  /** Completed passes (monotonic); lets the writer act on each pass's report once. */
  get passes(): number {
    return Atomics.load(this.#state, STATE.passes);
  }

  /** Asks for a pass; ignored while one is running (the next request after it covers new frames). */
  request(): void {
    if (this.state !== 'ready') return;
    if (Atomics.compareExchange(this.#state, STATE.busy, 0, 1) !== 0) return;
    Atomics.add(this.#state, STATE.request, 1);
    Atomics.notify(this.#state, STATE.request);
  }

  /** Closes the worker's connection and ends the thread (terminated if it does not stop in 2 s). */
  async close(): Promise<void> {
    Atomics.store(this.#state, STATE.close, 1);
    Atomics.add(this.#state, STATE.request, 1);
    Atomics.notify(this.#state, STATE.request);
    const timer = setTimeout(() => void this.#worker.terminate(), 2000);
    await this.#exit;
    clearTimeout(timer);
  }
}
