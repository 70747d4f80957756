/** Slots of the `k` highest scores, highest first (a min-heap of size k over one pass). */
export function topSlots(scores: Float32Array, k: number): number[] {
  const heapScore = new Float64Array(k);
  const heapSlot = new Int32Array(k);
  let size = 0;
  const siftDown = (start: number) => {
    let i = start;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < size && (heapScore[l] as number) < (heapScore[m] as number)) m = l;
      if (r < size && (heapScore[r] as number) < (heapScore[m] as number)) m = r;
      if (m === i) return;
      const s = heapScore[i] as number;
      const t = heapSlot[i] as number;
      heapScore[i] = heapScore[m] as number;
      heapSlot[i] = heapSlot[m] as number;
      heapScore[m] = s;
      heapSlot[m] = t;
      i = m;
    }
  };
  for (let slot = 0; slot < scores.length; slot++) {
    const score = scores[slot] as number;
    if (size < k) {
      let i = size++;
      heapScore[i] = score;
      heapSlot[i] = slot;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if ((heapScore[p] as number) <= (heapScore[i] as number)) break;
        const s = heapScore[p] as number;
        const t = heapSlot[p] as number;
        heapScore[p] = heapScore[i] as number;
        heapSlot[p] = heapSlot[i] as number;
        heapScore[i] = s;
        heapSlot[i] = t;
        i = p;
      }
    } else if (score > (heapScore[0] as number)) {
      heapScore[0] = score;
      heapSlot[0] = slot;
      siftDown(0);
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
