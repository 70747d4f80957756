import type { GuardedDoc } from './guard-types.js';

/** How long a written version is used instead of a read (`GuardOptions.reuseWritten`). */
const REUSE_MS = 5 * 60_000;
const MAX_REMEMBERED = 10_000;

/**
 * The versions of guarded documents this store wrote last, per collection and id, kept for a few
 * minutes (see `GuardOptions.reuseWritten`). A remembered version may be stale: the guard's
 * version-filtered write and its retry from a fresh read make that a cost, not an error.
 */
export class WrittenVersions {
  readonly #docs = new Map<string, { readonly doc: GuardedDoc; readonly at: number }>();
  readonly #ttlMs: number;
  readonly #max: number;

  constructor(options: { readonly ttlMs?: number; readonly max?: number } = {}) {
    this.#ttlMs = options.ttlMs ?? REUSE_MS;
    this.#max = options.max ?? MAX_REMEMBERED;
  }

  /** The versions of `ids` remembered in the last `ttlMs` (default REUSE_MS). */
  get<D extends GuardedDoc>(collection: string, ids: readonly string[]): Map<string, D> {
    const out = new Map<string, D>();
    const since = Date.now() - this.#ttlMs;
    for (const id of ids) {
      const key = `${collection}\u0000${id}`;
      const hit = this.#docs.get(key);
      if (hit && hit.at >= since) out.set(id, hit.doc as D);
      else if (hit) this.#docs.delete(key);
    }
    return out;
  }

  remember(collection: string, doc: GuardedDoc): void {
    const key = `${collection}\u0000${doc._id}`;
    // The oldest entry makes room (a key remembered again moves to the end).
    this.#docs.delete(key);
    if (this.#docs.size >= this.#max) this.#docs.delete(this.#docs.keys().next().value as string);
    this.#docs.set(key, { doc, at: Date.now() });
  }

  forget(collection: string, id: string): void {
    this.#docs.delete(`${collection}\u0000${id}`);
  }
}
