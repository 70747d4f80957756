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

  /** The versions of `ids` written in the last REUSE_MS. */
  get<D extends GuardedDoc>(collection: string, ids: readonly string[]): Map<string, D> {
    const out = new Map<string, D>();
    const since = Date.now() - REUSE_MS;
    for (const id of ids) {
      const key = `${collection}\u0000${id}`;
      const hit = this.#docs.get(key);
      if (hit && hit.at >= since) out.set(id, hit.doc as D);
      else if (hit) this.#docs.delete(key);
    }
    return out;
  }

  remember(collection: string, doc: GuardedDoc): void {
    if (this.#docs.size >= MAX_REMEMBERED) this.#docs.clear();
    this.#docs.set(`${collection}\u0000${doc._id}`, { doc, at: Date.now() });
  }

  forget(collection: string, id: string): void {
    this.#docs.delete(`${collection}\u0000${id}`);
  }
}
