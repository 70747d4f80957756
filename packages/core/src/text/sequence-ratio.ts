/**
 * Ratcliff–Obershelp similarity (the measure of Python's difflib.SequenceMatcher.ratio, without
 * its junk heuristics): 2·M / (|a| + |b|), M = characters in recursively found longest common
 * blocks. The pipeline's plagiarism gate rejects facts ≥ 0.88 similar to the cited message; the
 * extractor checks its own phrasing against the same measure before emitting.
 */

function longestMatch(
  a: string,
  aLo: number,
  aHi: number,
  b: string,
  bLo: number,
  bHi: number,
): [number, number, number] {
  let bestI = aLo;
  let bestJ = bLo;
  let bestSize = 0;
  let prev = new Int32Array(bHi - bLo + 1);
  let curr = new Int32Array(bHi - bLo + 1);
  for (let i = aLo; i < aHi; i++) {
    for (let j = bLo; j < bHi; j++) {
      const k = j - bLo + 1;
      if (a.charCodeAt(i) === b.charCodeAt(j)) {
        const size = (prev[k - 1] ?? 0) + 1;
        curr[k] = size;
        if (size > bestSize) {
          bestSize = size;
          bestI = i - size + 1;
          bestJ = j - size + 1;
        }
      } else curr[k] = 0;
    }
    [prev, curr] = [curr, prev];
    curr.fill(0);
  }
  return [bestI, bestJ, bestSize];
}

function matchedChars(a: string, b: string): number {
  let total = 0;
  const stack: [number, number, number, number][] = [[0, a.length, 0, b.length]];
  while (stack.length > 0) {
    const [aLo, aHi, bLo, bHi] = stack.pop() as [number, number, number, number];
    if (aLo >= aHi || bLo >= bHi) continue;
    const [i, j, size] = longestMatch(a, aLo, aHi, b, bLo, bHi);
    if (size === 0) continue;
    total += size;
    stack.push([aLo, i, bLo, j], [i + size, aHi, j + size, bHi]);
  }
  return total;
}

/** Similarity in [0, 1]; 1 for two empty strings. */
export function sequenceRatio(a: string, b: string): number {
  const length = a.length + b.length;
  if (length === 0) return 1;
  return (2 * matchedChars(a, b)) / length;
}
