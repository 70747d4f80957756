/**
 * Results kept by `recent` and `lagging`: a guild's corpus size and, per keyword term, how many of
 * its facts hold it (see mongo-fact-keyword.ts), so a few hundred terms per guild in use.
 */
const MAX_KEPT = 4096;

/**
 * Reads shared within this process (the root context owns one; outside transactions only): a read
 * already in flight is joined, and ranking aggregates may be reused for a while. Every write by this
 * process to a collection bumps its counter, and a read started before the write is never shared
 * after it.
 */
export class SharedReads {
  readonly #inFlight = new Map<string, Promise<unknown>>();
  readonly #writes = new Map<string, number>();
  readonly #recent = new Map<string, { at: number; value: Promise<unknown> }>();
  readonly #refreshing = new Set<string>();

  /** Single-flight: a caller asking while the same read is in flight shares its result. */
  shared<T>(collection: string, key: string, read: () => Promise<T>): Promise<T> {
    // A read started before one of our own writes to the collection is not shared after it.
    key = `${collection}|${this.#writes.get(collection) ?? 0}|${key}`;
    const running = this.#inFlight.get(key) as Promise<T> | undefined;
    if (running) return running;
    const p = read().finally(() => this.#inFlight.delete(key));
    this.#inFlight.set(key, p);
    return p;
  }

  /** `shared`, and the result is also kept for `ttlMs` (at most `MAX_KEPT` entries, the oldest dropped first). */
  recent<T>(collection: string, key: string, ttlMs: number, read: () => Promise<T>): Promise<T> {
    const k = `${collection}|${this.#writes.get(collection) ?? 0}|${key}`;
    const hit = this.#recent.get(k);
    if (hit && Date.now() - hit.at < ttlMs) return hit.value as Promise<T>;
    const value = this.shared(collection, key, read);
    this.#recent.delete(k);
    if (this.#recent.size >= MAX_KEPT) this.#recent.delete(this.#recent.keys().next().value as string);
    this.#recent.set(k, { at: Date.now(), value });
    value.catch(() => this.#recent.delete(k));
    return value;
  }

  /**
   * `recent`, except that past `ttlMs` the kept result is still returned while one refresh runs in
   * the background (for aggregates that may lag, like a corpus size; not after our own writes).
   */
  lagging<T>(collection: string, key: string, ttlMs: number, read: () => Promise<T>): Promise<T> {
    const k = `${collection}|${this.#writes.get(collection) ?? 0}|${key}`;
    const hit = this.#recent.get(k);
    if (!hit) return this.recent(collection, key, ttlMs, read);
    if (Date.now() - hit.at >= ttlMs && !this.#refreshing.has(k)) {
      this.#refreshing.add(k);
      const value = read();
      value.then(
        () => {
          if (this.#recent.has(k)) this.#recent.set(k, { at: Date.now(), value });
        },
        () => undefined,
      );
      void value.catch(() => undefined).finally(() => this.#refreshing.delete(k));
    }
    return hit.value as Promise<T>;
  }

  /** Drops a result kept by `recent` (one found out of date), so the next ask reads again. */
  forget(collection: string, key: string): void {
    this.#recent.delete(`${collection}|${this.#writes.get(collection) ?? 0}|${key}`);
  }

  /** Records a write by this process to a collection. */
  wrote(collection: string): void {
    this.#writes.set(collection, (this.#writes.get(collection) ?? 0) + 1);
  }
}
