import { DOTS_WASM_BASE64 } from './dots-wasm.js';
import { topSlots } from './top-slots.js';

type Dots = (q: number, rows: number, count: number, stride: number, out: number) => void;

/** The parts of the WebAssembly global used here (Node's own types for it are not in @types/node 20). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
/** A compiled module (opaque). */
export type DotsModule = { readonly __compiled: unique symbol };
interface WasmApi {
  readonly Module: new (bytes: Uint8Array) => DotsModule;
  readonly Instance: new (module: DotsModule) => { readonly exports: Record<string, unknown> };
}
const wasm = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;

const PAGE = 65_536;
/** Rows a matrix grows by at least, and its growth factor past that (memory never shrinks). */
const MIN_GROWTH = 256;
const GROWTH = 1.25;
/** Heap held per row besides its floats (item id string, map entries), as an estimate. */
export const ROW_OVERHEAD_BYTES = 120;

let compiled: DotsModule | null | undefined;

/** The dots module, compiled once per process; null where this runtime cannot (no SIMD). */
export function dotsModule(): DotsModule | null {
  if (compiled === undefined) {
    try {
      if (!wasm) throw new Error('no WebAssembly');
      compiled = new wasm.Module(Buffer.from(DOTS_WASM_BASE64, 'base64'));
    } catch {
      compiled = null;
    }
  }
  return compiled;
}

/** Row length in floats: a multiple of 8 (the module's two four-lane accumulators). */
export const strideOf = (dims: number): number => Math.ceil(dims / 8) * 8;
/** Row length of the i8 copy in bytes: a multiple of 32 (the module's two 16-byte loads). */
const bytesOf8 = (dims: number): number => Math.ceil(dims / 32) * 32;
/** Matrices with fewer rows are scanned in f32 alone (the coarse pass would not pay for itself). */
export const COARSE_MIN_ROWS = 2048;

/** Room for `rows` rows and the ones a guild adds before its next growth. */
export const roomFor = (rows: number): number => rows + Math.max(MIN_GROWTH, Math.ceil(rows / 16));

/** Bytes of a matrix with room for `capacity` rows holding `rows` of `dims` floats. */
export const matrixBytes = (capacity: number, rows: number, dims: number): number =>
  (capacity + 1) * (strideOf(dims) * 4 + bytesOf8(dims)) + capacity * 36 + rows * ROW_OVERHEAD_BYTES;

/** Writes `vector` scaled to unit length into `target`, zeros after `dims` (a zero vector stays 0). */
function writeUnit(target: Float32Array, vector: Float32Array, dims: number): void {
  let norm = 0;
  for (let i = 0; i < dims; i++) norm += (vector[i] as number) ** 2;
  // A zero vector has no direction: it scores 0 against everything.
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let i = 0; i < dims; i++) target[i] = (vector[i] as number) * scale;
  target.fill(0, dims);
}

/**
 * One guild's unit-length message vectors, back to back in the linear memory of its own instance
 * of the dots module: cosine similarity is then one dot product per row, four lanes at a time.
 * Layout: the query (one stride), the rows (`capacity` strides), an i8 copy of the rows
 * (`capacity` i8 strides), the i8 query, then the scores (`capacity` 4-byte slots). Rows are keyed
 * by their rowid in `vector_ids`; removing one moves the last row into its slot.
 *
 * A big matrix is searched in two passes (`#coarseNearest`): i8 dot products over a quarter of
 * the bytes bound every row's score from above and below, and only the rows whose upper bound
 * reaches the k-th best lower bound are scored again in f32. The answer is the f32 pass's: the
 * same rows, scores and order as scoring every row.
 */
export class GuildMatrix {
  readonly dims: number;
  readonly #stride: number;
  readonly #stride8: number;
  readonly #memory: WasmMemory;
  readonly #dots: Dots;
  readonly #qdots: Dots;
  #capacity = 0;
  #count = 0;
  readonly #ids: string[] = [];
  readonly #rowIds: number[] = [];
  readonly #slots = new Map<number, number>();
  /** Per slot: the i8 row's scale (f32 value of one step) and the L1 norm of the values it stands for. */
  #scale = new Float64Array(0);
  #l1 = new Float64Array(0);
  /** Scratch of the coarse pass: each row's upper and lower bound (reused by every search). */
  #upper = new Float64Array(0);
  #lower = new Float64Array(0);

  /** `rows`: how many the matrix has room for at first. */
  constructor(module: DotsModule, dims: number, rows: number) {
    this.dims = dims;
    this.#stride = strideOf(dims);
    this.#stride8 = bytesOf8(dims);
    const instance = new (wasm as WasmApi).Instance(module);
    this.#memory = instance.exports['memory'] as WasmMemory;
    this.#dots = instance.exports['dots'] as Dots;
    this.#qdots = instance.exports['qdots'] as Dots;
    this.#reserve(Math.max(1, rows));
  }

  get size(): number {
    return this.#count;
  }

  /** Bytes held: the memory reserved for rows and scores, and the per-row estimate. */
  get bytes(): number {
    return matrixBytes(this.#capacity, this.#count, this.dims);
  }

  #rowsAt(): number {
    return this.#stride * 4;
  }

  #rows8At(capacity = this.#capacity): number {
    return this.#rowsAt() + capacity * this.#stride * 4;
  }

  #query8At(): number {
    return this.#rows8At() + this.#capacity * this.#stride8;
  }

  #outAt(): number {
    return this.#query8At() + this.#stride8;
  }

  #reserve(rows: number): void {
    if (rows <= this.#capacity) return;
    const capacity = Math.max(rows, this.#capacity + MIN_GROWTH, Math.ceil(this.#capacity * GROWTH));
    const end = this.#rowsAt() + capacity * (this.#stride * 4 + this.#stride8) + this.#stride8 + capacity * 4;
    const pages = Math.ceil(end / PAGE) - this.#memory.buffer.byteLength / PAGE;
    if (pages > 0) this.#memory.grow(pages);
    // The i8 rows sit after the f32 rows: they move up by the f32 rows' growth.
    const from = this.#rows8At();
    const to = this.#rows8At(capacity);
    if (this.#count > 0)
      new Uint8Array(this.#memory.buffer).copyWithin(to, from, from + this.#count * this.#stride8);
    const scale = new Float64Array(capacity);
    scale.set(this.#scale.subarray(0, this.#count));
    this.#scale = scale;
    const l1 = new Float64Array(capacity);
    l1.set(this.#l1.subarray(0, this.#count));
    this.#l1 = l1;
    this.#upper = new Float64Array(capacity);
    this.#lower = new Float64Array(capacity);
    this.#capacity = capacity;
  }

  /** Adds the row, or replaces the vector of a row already held. `vector` has `dims` floats. */
  set(rowId: number, itemId: string, vector: Float32Array): void {
    let slot = this.#slots.get(rowId);
    if (slot === undefined) {
      this.#reserve(this.#count + 1);
      slot = this.#count++;
      this.#slots.set(rowId, slot);
      this.#ids[slot] = itemId;
      this.#rowIds[slot] = rowId;
    } else this.#ids[slot] = itemId;
    const row = new Float32Array(this.#memory.buffer, this.#rowsAt() + slot * this.#stride * 4, this.#stride);
    writeUnit(row, vector, this.dims);
    const steps = new Int8Array(this.#memory.buffer, this.#rows8At() + slot * this.#stride8, this.#stride8);
    const [scale, l1] = quantize(row, steps);
    this.#scale[slot] = scale;
    this.#l1[slot] = l1;
  }

  remove(rowId: number): void {
    const slot = this.#slots.get(rowId);
    if (slot === undefined) return;
    this.#slots.delete(rowId);
    const last = --this.#count;
    if (slot !== last) {
      const memory = new Uint8Array(this.#memory.buffer);
      const bytes = this.#stride * 4;
      const base = this.#rowsAt();
      memory.copyWithin(base + slot * bytes, base + last * bytes, base + (last + 1) * bytes);
      const base8 = this.#rows8At();
      const bytes8 = this.#stride8;
      memory.copyWithin(base8 + slot * bytes8, base8 + last * bytes8, base8 + (last + 1) * bytes8);
      this.#scale[slot] = this.#scale[last] as number;
      this.#l1[slot] = this.#l1[last] as number;
      const movedRow = this.#rowIds[last] as number;
      this.#rowIds[slot] = movedRow;
      this.#ids[slot] = this.#ids[last] as string;
      this.#slots.set(movedRow, slot);
    }
    this.#rowIds.length = last;
    this.#ids.length = last;
  }

  /**
   * The `limit` rows most similar to `query` (cosine), best first, as [item id, similarity]. Rows
   * of equal similarity at the cut are taken in slot order.
   */
  nearest(query: Float32Array, limit: number, options: { exhaustive?: boolean } = {}): [string, number][] {
    const count = this.#count;
    if (count === 0 || limit <= 0) return [];
    const q = new Float32Array(this.#memory.buffer, 0, this.#stride);
    writeUnit(q, query, this.dims);
    const k = Math.min(limit, count);
    if (!options.exhaustive && count >= COARSE_MIN_ROWS) {
      const coarse = this.#coarseNearest(q, k);
      if (coarse) return coarse;
    }
    const out = this.#outAt();
    this.#dots(0, this.#rowsAt(), count, this.#stride, out);
    const scores = new Float32Array(this.#memory.buffer, out, count);
    const top = topSlots(scores, k);
    return top.map((slot) => [this.#ids[slot] as string, scores[slot] as number]);
  }

  /**
   * The two-pass search (see the class). With the query and a row each written as scale × i8
   * steps plus a rounding error of at most half a step per value, the f32 dot product lies within
   * (row scale / 2) × L1(query steps) + (query scale / 2) × L1(row steps) + dims × both scales / 4
   * of the i8 one, and the f32 pass within `f32Slack` of the exact sum. Null for a zero query.
   */
  #coarseNearest(q: Float32Array, k: number): [string, number][] | null {
    const count = this.#count;
    const q8 = new Int8Array(this.#memory.buffer, this.#query8At(), this.#stride8);
    const [qScale, qL1] = quantize(q, q8);
    if (qScale === 0) return null;
    const out = this.#outAt();
    this.#qdots(this.#query8At(), this.#rows8At(), count, this.#stride8, out);
    const coarse = new Int32Array(this.#memory.buffer, out, count);
    const slack = f32Slack(this.#stride);
    const cross = this.dims * 0.25 * qScale;
    const upper = this.#upper;
    const lower = this.#lower;
    for (let r = 0; r < count; r++) {
      const scale = this.#scale[r] as number;
      const approx = (coarse[r] as number) * qScale * scale;
      const bound = scale * 0.5 * qL1 + qScale * 0.5 * (this.#l1[r] as number) + cross * scale + slack;
      upper[r] = approx + bound;
      lower[r] = approx - bound;
    }
    // The k-th best lower bound.
    const threshold = lower[topSlots(lower.subarray(0, count), k).at(-1) as number] as number;
    // Every row that may score at least the k-th best, scored in f32 as the full pass scores it.
    const candidates: number[] = [];
    for (let r = 0; r < count; r++) if ((upper[r] as number) >= threshold) candidates.push(r);
    const rowBytes = this.#stride * 4;
    candidates.forEach((slot, j) => {
      this.#dots(0, this.#rowsAt() + slot * rowBytes, 1, this.#stride, out + j * 4);
    });
    // Candidates are in slot order: ties among them fall as they would in the full pass.
    const scores = new Float32Array(this.#memory.buffer, out, candidates.length);
    return topSlots(scores, k).map((j) => [
      this.#ids[candidates[j] as number] as string,
      scores[j] as number,
    ]);
  }
}

/**
 * Writes `values` as i8 steps of one scale (the largest magnitude maps to ±127) into `steps`
 * (zeros after); returns [scale, L1 norm of scale × steps]. A zero vector has scale 0.
 */
function quantize(values: Float32Array, steps: Int8Array): [number, number] {
  let max = 0;
  for (let i = 0; i < values.length; i++) max = Math.max(max, Math.abs(values[i] as number));
  steps.fill(0);
  if (max === 0) return [0, 0];
  const scale = max / 127;
  let l1 = 0;
  for (let i = 0; i < values.length; i++) {
    const step = Math.max(-127, Math.min(127, Math.round((values[i] as number) / scale)));
    steps[i] = step;
    l1 += Math.abs(step);
  }
  return [scale, l1 * scale];
}

/**
 * How far the f32 pass's sum may be from the exact dot product of two unit vectors of this
 * stride: each lane adds stride / 8 products, then lanes and accumulators are added (a few more
 * roundings), each rounding off by at most 2^-24 of the sum of magnitudes (at most 1); doubled.
 */
const f32Slack = (stride: number): number => (stride / 8 + 5) * 2 ** -23;
