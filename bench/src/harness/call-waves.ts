import type { MemoryStore } from '@permafrost/core';

/** Store-call waves of one operation: the longest chain of calls each started after another answered. */
export interface WaveCount {
  readonly calls: number;
  readonly waves: number;
}

/**
 * Wraps every async method of a store's roles (facts, vectors, graph, …) to count, per operation,
 * the store calls and their critical path ("waves": a call started after an earlier one answered
 * is one wave later; calls started together share one). This is what a store that answers each
 * call in one round trip (MongoDB reading several ids with one `$in`, a database over a network)
 * pays in latency, independent of the backend and of the server's speed. Each answer is delivered
 * a macrotask late (see below), so a pass through it is not a timing.
 */
export class CallWaves {
  readonly store: MemoryStore;
  #active = false;
  #calls = 0;
  #finished = 0;
  #depth = 0;

  constructor(inner: MemoryStore) {
    const wrapRole = (obj: object) =>
      new Proxy(obj, {
        get: (target, prop, receiver) => {
          const value = Reflect.get(target, prop, receiver) as unknown;
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => {
            const out = (value as (...a: unknown[]) => unknown).apply(target, args);
            if (!this.#active || !(out instanceof Promise)) return out;
            const d = this.#finished + 1;
            this.#calls++;
            this.#depth = Math.max(this.#depth, d);
            // Answered a macrotask later, as over a network: calls issued together overlap even on
            // a store that answers at once (SQLite), instead of each seeing the previous answered.
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
          };
        },
      });
    this.store = new Proxy(inner, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (typeof value === 'function') return (value as (...a: unknown[]) => unknown).bind(target);
        if (value !== null && typeof value === 'object' && prop !== 'capabilities') return wrapRole(value);
        return value;
      },
    });
  }

  /** Counts the store calls of one awaited operation. */
  async measure(fn: () => Promise<unknown>): Promise<WaveCount> {
    this.#active = true;
    this.#calls = 0;
    this.#finished = 0;
    this.#depth = 0;
    try {
      await fn();
      return { calls: this.#calls, waves: this.#depth };
    } finally {
      this.#active = false;
    }
  }
}
