/**
 * The `k` slots of `candidates` with the highest scores, highest first; equal scores in slot order
 * (also at the cut: the lower slot is kept). A heap of size k whose root is the next to drop.
 */
export function topRows(candidates: readonly number[], scores: Float64Array, k: number): number[] {
  if (k <= 0) return [];
  const heap = new Int32Array(Math.min(k, candidates.length));
  let size = 0;
  /** Whether slot a is dropped before slot b. */
  const before = (a: number, b: number) => {
    const sa = scores[a] as number;
    const sb = scores[b] as number;
    return sa < sb || (sa === sb && a > b);
  };
  const swap = (i: number, j: number) => {
    const t = heap[i] as number;
    heap[i] = heap[j] as number;
    heap[j] = t;
  };
  for (const slot of candidates) {
    if (size < heap.length) {
      let i = size++;
      heap[i] = slot;
      for (
        let p = (i - 1) >> 1;
        i > 0 && before(heap[i] as number, heap[p] as number);
        i = p, p = (i - 1) >> 1
      )
        swap(i, p);
    } else if (before(heap[0] as number, slot)) {
      heap[0] = slot;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        let m = i;
        if (l < size && before(heap[l] as number, heap[m] as number)) m = l;
        if (l + 1 < size && before(heap[l + 1] as number, heap[m] as number)) m = l + 1;
        if (m === i) break;
        swap(i, m);
        i = m;
      }
    }
  }
  return Array.from(heap.subarray(0, size)).sort(
    (a, b) => (scores[b] as number) - (scores[a] as number) || a - b,
  );
}
