import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from '@permafrost/core';
import type { MessageTextHit } from '@permafrost/core/store';
import { isInMemoryPath } from '../open-file.js';
import type { GuildRows } from '../vector-scan/guild-rows.js';
import type { ThreadData, ThreadReply, ThreadRequest } from './protocol.js';

/**
 * Keyword indexes at least this big (rows, every guild of the file) are searched on the thread:
 * below it a search takes about a millisecond, no more than the hand-off.
 */
export const THREAD_MIN_INDEX_ROWS = 10_000;
/** Guilds with at least this many message vectors have them read on the thread (about 50 ms of reading). */
export const THREAD_MIN_VECTORS = 4096;

/** How long close() waits for the thread to close its connection before ending it. */
const CLOSE_WAIT_MS = 2000;

/**
 * The compiled entry next to this module. Under the repository's source condition (its tests run
 * the TypeScript sources) it is the build of the same file, which the test command makes first.
 */
function entryPath(): string {
  const here = fileURLToPath(import.meta.url);
  const built = here.endsWith('.ts')
    ? here.replace(/([\\/])src([\\/])(?!.*[\\/]src[\\/])/, '$1dist$2')
    : here;
  return resolve(built, '..', 'entry.js');
}

interface Waiting {
  resolve(reply: ThreadReply): void;
  reject(error: unknown): void;
}

/**
 * Big reads on a worker thread with its own read-only connection, so that they neither hold the
 * bot's event loop nor wait for the store's thread: message keyword searches of big indexes (the
 * BM25 ranking runs while the store's thread ranks the vector candidates, since a search asks for
 * both at once) and the first read of a big guild's message vectors (see MessageVectors). The
 * thread starts at the first request and never keeps the process alive while idle. It reads the
 * file's committed state when the request reaches it, as the store's own connection would outside
 * a transaction. A thread that cannot start or dies is reported once (`sqlite.read_thread_failed`)
 * and not used again; a request it cannot answer is answered on the store's connection (the
 * caller's fallback), so the thread never changes what a read returns.
 */
export class ReadThread {
  readonly #data: ThreadData | null;
  readonly #logger: Logger | undefined;
  #worker: Worker | null = null;
  #exited: Promise<void> = Promise.resolve();
  #failed = false;
  #closed = false;
  #next = 0;
  readonly #waiting = new Map<number, Waiting>();

  constructor(path: string, busyTimeoutMs: number, logger: Logger | undefined) {
    this.#data =
      isInMemoryPath(path) || path.startsWith('file:') ? null : { path: resolve(path), busyTimeoutMs };
    this.#logger = logger;
  }

  /** Whether the thread takes requests (a file on disk, not failed, not closed). */
  get available(): boolean {
    return this.#data !== null && !this.#failed && !this.#closed;
  }

  /** Whether an index of this many rows is searched on the thread. */
  serves(indexRows: number): boolean {
    return this.available && indexRows >= THREAD_MIN_INDEX_ROWS;
  }

  /** The hits of `messageKeywordHits` read on the thread; rejects when the thread could not answer. */
  async search(
    guildId: string,
    terms: readonly string[],
    limit: number,
    windowsAround = 0,
  ): Promise<MessageTextHit[]> {
    const reply = await this.#ask((id) => ({
      type: 'search',
      id,
      guildId,
      terms: [...terms],
      limit,
      windowsAround,
    }));
    if (!('hits' in reply)) throw new Error('the read thread answered another request');
    return reply.hits;
  }

  /**
   * Messages were deleted or edited on the store's connection: a running thread lets go of its copy
   * of the keyword index now, so their terms do not stay in memory until the next search.
   */
  dropCopies(): void {
    this.#worker?.postMessage({ type: 'drop' } satisfies ThreadRequest);
  }

  /** The guild's rows of `readGuildRows` read on the thread; rejects when the thread could not answer. */
  async guildRows(guildId: string, dims: number): Promise<GuildRows> {
    const reply = await this.#ask((id) => ({ type: 'vectors', id, guildId, dims }));
    if (!('rows' in reply)) throw new Error('the read thread answered another request');
    return reply.rows;
  }

  #ask(request: (id: number) => ThreadRequest): Promise<ThreadReply> {
    const worker = this.#start();
    if (!worker) return Promise.reject(new Error('the read thread is not running'));
    const id = this.#next++;
    return new Promise<ThreadReply>((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      // Kept alive while a request is waiting for it (an awaited read must not let the process end).
      if (this.#waiting.size === 1) worker.ref();
      worker.postMessage(request(id));
    });
  }

  #start(): Worker | null {
    if (!this.#data || this.#failed || this.#closed) return null;
    if (this.#worker) return this.#worker;
    let worker: Worker;
    try {
      // It runs this package's compiled modules only: the process's flags (loaders, --conditions
      // that would resolve them elsewhere) are not handed on.
      worker = new Worker(entryPath(), { workerData: this.#data, execArgv: [] });
    } catch (error) {
      this.#fail(error);
      return null;
    }
    this.#logger?.({ level: 'debug', event: 'sqlite.read_thread_started' });
    worker.on('message', (reply: ThreadReply) => this.#answer(reply));
    worker.on('error', (error) => this.#fail(error));
    this.#exited = new Promise<void>((done) => {
      worker.once('exit', () => {
        this.#worker = null;
        if (!this.#closed) this.#fail(new Error('the read thread exited'));
        this.#rejectWaiting(new Error('the read thread ended'));
        done();
      });
    });
    // Never keeps the process alive while idle (after the listeners: adding one refs the port again).
    worker.unref();
    this.#worker = worker;
    return worker;
  }

  #answer(reply: ThreadReply): void {
    const waiting = this.#waiting.get(reply.id);
    if (!waiting) return;
    this.#waiting.delete(reply.id);
    if (this.#waiting.size === 0 && !this.#closed) this.#worker?.unref();
    if (!('error' in reply)) waiting.resolve(reply);
    else {
      waiting.reject(reply.error);
      this.#fail(reply.error);
    }
  }

  /**
   * The thread is not used again (a read it failed fails on the store's connection too, or its
   * connection cannot read the file); reads waiting for it are answered by their fallback.
   */
  #fail(error: unknown): void {
    if (!this.#failed && !this.#closed)
      this.#logger?.({ level: 'warn', event: 'sqlite.read_thread_failed', error });
    this.#failed = true;
    this.#rejectWaiting(error);
    void this.#worker?.terminate();
  }

  #rejectWaiting(error: unknown): void {
    for (const waiting of this.#waiting.values()) waiting.reject(error);
    this.#waiting.clear();
  }

  /**
   * Answers the requests already sent, then closes the thread's connection and ends it (terminated
   * if it does not stop in 2 s). Final.
   */
  async close(): Promise<void> {
    this.#closed = true;
    const worker = this.#worker;
    if (!worker) return;
    worker.ref();
    worker.postMessage({ type: 'close' } satisfies ThreadRequest);
    const timer = setTimeout(() => void worker.terminate(), CLOSE_WAIT_MS);
    await this.#exited;
    clearTimeout(timer);
  }
}
