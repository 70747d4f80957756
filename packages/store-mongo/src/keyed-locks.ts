/**
 * In-process mutual exclusion per key. Guarded writes from one process to the same document queue
 * here instead of racing for the same version token on the server. Keys are taken in sorted order,
 * so two callers locking overlapping sets cannot deadlock.
 */
export class KeyedLocks {
  readonly #tails = new Map<string, Promise<void>>();

  async acquire(keys: readonly string[]): Promise<() => void> {
    const releases: (() => void)[] = [];
    for (const key of [...new Set(keys)].sort()) {
      const previous = this.#tails.get(key) ?? Promise.resolve();
      let release!: () => void;
      const mine = new Promise<void>((resolve) => {
        release = resolve;
      });
      const tail = previous.then(() => mine);
      this.#tails.set(key, tail);
      await previous;
      releases.push(() => {
        release();
        if (this.#tails.get(key) === tail) this.#tails.delete(key);
      });
    }
    return () => {
      for (const r of releases) r();
    };
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
