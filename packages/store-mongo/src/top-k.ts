import type { VectorHit } from '@permafrost/core/store';

const before = (a: VectorHit, b: VectorHit) => a.score > b.score || (a.score === b.score && a.id < b.id);

/**
 * The best `k` hits of a stream (score descending, then id ascending), in O(k) memory: a binary
 * min-heap whose root is the worst hit kept.
 */
export class TopK {
  readonly #k: number;
  readonly #heap: VectorHit[] = [];

  constructor(k: number) {
    this.#k = k;
  }

  offer(hit: VectorHit): void {
    const h = this.#heap;
    if (h.length < this.#k) {
      h.push(hit);
      let i = h.length - 1;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!before(h[p] as VectorHit, h[i] as VectorHit)) break;
        [h[p], h[i]] = [h[i] as VectorHit, h[p] as VectorHit];
        i = p;
      }
      return;
    }
    if (this.#k === 0 || !before(hit, h[0] as VectorHit)) return;
    h[0] = hit;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < h.length && before(h[worst] as VectorHit, h[l] as VectorHit)) worst = l;
      if (r < h.length && before(h[worst] as VectorHit, h[r] as VectorHit)) worst = r;
      if (worst === i) break;
      [h[worst], h[i]] = [h[i] as VectorHit, h[worst] as VectorHit];
      i = worst;
    }
  }

  /** The kept hits, best first. */
  sorted(): VectorHit[] {
    return [...this.#heap].sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
  }
}
