/**
 * Slots of the `k` highest scores, highest first, equal scores in slot order (also at the cut:
 * the earlier slots are kept). One pass with a heap of size k whose root is the entry to drop
 * next: the lowest score, the latest slot among equal ones. With `among`, only those slots (in
 * any order) are candidates.
 */
export function topSlots(scores: ArrayLike<number>, k: number, among?: ArrayLike<number>): number[] {
  const heapScore = new Float64Array(k);
  const heapSlot = new Int32Array(k);
  let size = 0;
  /** Whether entry i is dropped before entry j. */
  const before = (i: number, j: number) =>
    (heapScore[i] as number) < (heapScore[j] as number) ||
    ((heapScore[i] as number) === (heapScore[j] as number) &&
      (heapSlot[i] as number) > (heapSlot[j] as number));
  const swap = (i: number, j: number) => {
    const s = heapScore[i] as number;
    const t = heapSlot[i] as number;
    heapScore[i] = heapScore[j] as number;
    heapSlot[i] = heapSlot[j] as number;
    heapScore[j] = s;
    heapSlot[j] = t;
  };
  const count = among ? among.length : scores.length;
  for (let n = 0; n < count; n++) {
    const slot = among ? (among[n] as number) : n;
    const score = scores[slot] as number;
    if (size < k) {
      let i = size++;
      heapScore[i] = score;
      heapSlot[i] = slot;
      for (let p = (i - 1) >> 1; i > 0 && before(i, p); i = p, p = (i - 1) >> 1) swap(i, p);
    } else if (
      size > 0 &&
      (score > (heapScore[0] as number) ||
        (score === (heapScore[0] as number) && slot < (heapSlot[0] as number)))
    ) {
      heapScore[0] = score;
      heapSlot[0] = slot;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        let m = i;
        if (l < size && before(l, m)) m = l;
        if (l + 1 < size && before(l + 1, m)) m = l + 1;
        if (m === i) break;
        swap(i, m);
        i = m;
      }
    }
  }
  const order = Array.from({ length: size }, (_, i) => i);
  order.sort(
    (a, b) =>
      (heapScore[b] as number) - (heapScore[a] as number) ||
      (heapSlot[a] as number) - (heapSlot[b] as number),
  );
  return order.map((i) => heapSlot[i] as number);
}
