/** Dot product; equals cosine similarity for unit vectors. */
export function dot(a: Float32Array, b: Float32Array): number {
  const n = Math.min(a.length, b.length);
  let s = 0;
  for (let i = 0; i < n; i++) s += (a[i] as number) * (b[i] as number);
  return s;
}

export function cosine(a: Float32Array, b: Float32Array): number {
  let s = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    s += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : s / Math.sqrt(na * nb);
}

/** Unit-length mean of vectors (zero vector when empty). */
export function centroid(vectors: readonly Float32Array[], dimensions: number): Float32Array {
  const out = new Float32Array(dimensions);
  for (const v of vectors) for (let i = 0; i < dimensions; i++) out[i] = (out[i] as number) + (v[i] ?? 0);
  let norm = 0;
  for (let i = 0; i < dimensions; i++) norm += (out[i] as number) ** 2;
  if (norm > 0) {
    const inv = 1 / Math.sqrt(norm);
    for (let i = 0; i < dimensions; i++) out[i] = (out[i] as number) * inv;
  }
  return out;
}
