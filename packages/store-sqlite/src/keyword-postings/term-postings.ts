import { bm25Idf } from '@permafrost/core/store';

/** One term's postings: the slots of the rows holding it and how often each does, in slot order. */
export class TermPostings {
  #slots = new Int32Array(4);
  #counts = new Uint32Array(4);
  #size = 0;

  /** Rows holding the term (bm25()'s hits for its phrase). */
  get rows(): number {
    return this.#size;
  }

  /** Lets go of the room reserved for more rows (a copy that is done building keeps only its size). */
  fit(): void {
    if (this.#slots.length === this.#size) return;
    this.#slots = this.#slots.slice(0, this.#size);
    this.#counts = this.#counts.slice(0, this.#size);
  }

  push(slot: number, count: number): void {
    if (this.#size === this.#slots.length) {
      const slots = new Int32Array(Math.max(4, this.#size * 2));
      slots.set(this.#slots);
      this.#slots = slots;
      const counts = new Uint32Array(Math.max(4, this.#size * 2));
      counts.set(this.#counts);
      this.#counts = counts;
    }
    this.#slots[this.#size] = slot;
    this.#counts[this.#size] = count;
    this.#size++;
  }

  /**
   * Adds the term's part of bm25() to the score of every row holding it; rows scored for the
   * first time are appended to `touched`.
   */
  addScores(
    scores: Float64Array,
    touched: number[],
    lengths: Uint32Array,
    rows: number,
    avgdl: number,
    part: (idf: number, frequency: number, length: number, avgdl: number) => number,
  ): void {
    const idf = bm25Idf(rows, this.#size);
    const slots = this.#slots;
    const counts = this.#counts;
    for (let i = 0; i < this.#size; i++) {
      const slot = slots[i] as number;
      const before = scores[slot] as number;
      if (before === 0) touched.push(slot);
      scores[slot] = before + part(idf, counts[i] as number, lengths[slot] as number, avgdl);
    }
  }
}
