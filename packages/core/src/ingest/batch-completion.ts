import type { MemoryStore } from '../ports/memory-store.js';

/**
 * A batch's own bookkeeping (its messages marked processed, a watermark moved), made durable in
 * the same transaction as the batch's facts: a crash can then never leave committed facts with a
 * batch that will be extracted, and reinforced, a second time. The fact commit applies it last
 * inside its transaction; when nothing was committed, `settle` commits it alone.
 */
export class BatchCompletion {
  readonly #work: () => Promise<void>;
  #applied = false;

  constructor(work: () => Promise<void>) {
    this.#work = work;
  }

  /** Runs the bookkeeping in the caller's transaction. */
  async apply(): Promise<void> {
    await this.#work();
    this.#applied = true;
  }

  /** Commits the bookkeeping on its own unless a fact commit already carried it. */
  async settle(store: Pick<MemoryStore, 'transaction'>): Promise<void> {
    if (!this.#applied) await store.transaction(() => this.apply());
  }
}
