/**
 * Similarity ratio of two strings in [0, 1]: 2 × (longest common subsequence) / (total length),
 * the measure used to spot near-verbatim copies.
 */
export function copyRatio(a: string, b: string): number {
  if (a.length === 0 && b.length === 0) return 1;
  if (a.length === 0 || b.length === 0) return 0;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  let prev = new Uint16Array(short.length + 1);
  let curr = new Uint16Array(short.length + 1);
  for (let i = 1; i <= long.length; i++) {
    const c = long.charCodeAt(i - 1);
    for (let j = 1; j <= short.length; j++) {
      curr[j] =
        c === short.charCodeAt(j - 1)
          ? (prev[j - 1] as number) + 1
          : Math.max(prev[j] as number, curr[j - 1] as number);
    }
    [prev, curr] = [curr, prev];
  }
  return (2 * (prev[short.length] as number)) / (a.length + b.length);
}
