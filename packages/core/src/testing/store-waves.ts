import type { MemoryStore } from '../ports/memory-store.js';
import { interceptStore } from './intercept-store.js';

/** What one operation asked of a store. */
export interface StoreWaveCount {
  /** Store calls (`role.method`). */
  readonly calls: number;
  /** The longest chain of calls each started after another answered: one round trip each on a remote store. */
  readonly waves: number;
  /** The calls that started in each wave, in order. */
  readonly byWave: readonly (readonly string[])[];
}

/**
 * Wraps a store so every async call of its roles (facts, vectors, graph, …) answers a macrotask
 * late, as a store across a network answers after a round trip, and counts per operation the
 * calls and their critical path ("waves"): calls issued together overlap even on a store that
 * answers at once, a call issued after another answered is one wave later. This is what a store
 * answering each call in one round trip (MongoDB reading several ids with one `$in`, a database
 * over a network) pays in latency, whatever the backend. Not a timing: answers are delayed.
 */
export class StoreWaves {
  readonly store: MemoryStore;
  #active = false;
  #finished = 0;
  #byWave: string[][] = [];

  constructor(inner: MemoryStore) {
    this.store = interceptStore(inner, (role, method, call) => {
      const out = call();
      if (!this.#active || !(out instanceof Promise)) return out;
      const d = this.#finished + 1;
      const wave = this.#byWave[d - 1] ?? [];
      this.#byWave[d - 1] = wave;
      wave.push(`${role}.${method}`);
      const answered = () =>
        new Promise<void>((resolve) =>
          setImmediate(() => {
            this.#finished = Math.max(this.#finished, d);
            resolve();
          }),
        );
      return out.then(
        async (v) => {
          await answered();
          return v;
        },
        async (e) => {
          await answered();
          throw e;
        },
      );
    });
  }

  /** Counts the store calls of one awaited operation (outside it, calls pass through uncounted). */
  async measure<T>(fn: () => Promise<T>): Promise<StoreWaveCount & { readonly result: T }> {
    this.#active = true;
    this.#finished = 0;
    this.#byWave = [];
    try {
      const result = await fn();
      const byWave = this.#byWave;
      return { result, calls: byWave.reduce((n, w) => n + w.length, 0), waves: byWave.length, byWave };
    } finally {
      this.#active = false;
    }
  }
}
