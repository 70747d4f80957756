import type { MemoryStore } from '../ports/memory-store.js';
import type { Erased } from './erasure-fence.js';

/**
 * The two parts of a batch's bookkeeping. Both receive the erasures the commit read from its
 * fence (null when the caller has none: they read it themselves).
 */
export interface CompletionParts {
  /**
   * Idempotent writes that mean nothing about the batch being done (its messages' vectors): they
   * may go out beside the batch's facts.
   */
  readonly beside?: (erased: Erased | null) => Promise<void>;
  /**
   * "This batch is done" (messages marked processed, a watermark moved): always last. With
   * `after` (the batch's writes, still in flight) it may start first and prepare, but marks
   * nothing before `after` resolves (see `CompleteOptions.after`).
   */
  readonly finish: (erased: Erased | null, after?: Promise<unknown>) => Promise<void>;
}

/**
 * A batch's own bookkeeping (its messages marked processed, a watermark moved), made durable in
 * the same transaction as the batch's facts: a crash can then never leave committed facts with a
 * batch that will be extracted, and reinforced, a second time. The fact commit runs `beside`
 * with its writes and `apply` last inside its transaction; when nothing was committed, `settle`
 * commits it alone.
 */
export class BatchCompletion {
  readonly #parts: CompletionParts;
  readonly #check: (() => Promise<Erased>) | null;
  #besideDone = false;
  #applied = false;

  /** `check` reads the erasures when a caller passes none (see CompletionParts). */
  constructor(parts: CompletionParts, check: (() => Promise<Erased>) | null = null) {
    this.#parts = parts;
    this.#check = check;
  }

  /** The writes that may go beside the batch's facts, in the caller's transaction. */
  async beside(erased: Erased | null): Promise<void> {
    if (this.#besideDone) return;
    await this.#parts.beside?.(erased);
    this.#besideDone = true;
  }

  /** Runs the bookkeeping (what `beside` has not written yet, then the "done" mark) in the caller's transaction. */
  async apply(erased: Erased | null = null): Promise<void> {
    const seen = erased ?? (this.#check ? await this.#check() : null);
    await this.beside(seen);
    await this.#parts.finish(seen);
    this.#applied = true;
  }

  /**
   * The "done" mark started while the batch's writes are still in flight (stores without atomic
   * transactions: a remote store prepares meanwhile). `after` settles once they have landed,
   * `beside` included, which the caller's commit wrote itself; nothing is marked before it
   * resolves, and a rejection of `after` rejects this call.
   */
  async applyAfter(erased: Erased | null, after: Promise<unknown>): Promise<void> {
    const seen = erased ?? (this.#check ? await this.#check() : null);
    await this.#parts.finish(seen, after);
    await after;
    this.#besideDone = true;
    this.#applied = true;
  }

  /** Commits the bookkeeping on its own unless a fact commit already carried it. */
  async settle(store: Pick<MemoryStore, 'transaction'>): Promise<void> {
    if (!this.#applied) await store.transaction(() => this.apply());
  }
}
