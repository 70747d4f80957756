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

/** Room for `rows` rows and the ones a guild adds before its next growth. */
export const roomFor = (rows: number): number => rows + Math.max(MIN_GROWTH, Math.ceil(rows / 16));

/** Bytes of a matrix with room for `capacity` rows holding `rows` of `dims` floats. */
export const matrixBytes = (capacity: number, rows: number, dims: number): number =>
  (capacity + 1) * strideOf(dims) * 4 + capacity * 4 + rows * ROW_OVERHEAD_BYTES;

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
 * Layout: the query (one stride), the rows (`capacity` strides), the scores (`capacity` floats).
 * Rows are keyed by their rowid in `vector_ids`; removing one moves the last row into its slot.
 */
export class GuildMatrix {
  readonly dims: number;
  readonly #stride: number;
  readonly #memory: WasmMemory;
  readonly #dots: Dots;
  #capacity = 0;
  #count = 0;
  readonly #ids: string[] = [];
  readonly #rowIds: number[] = [];
  readonly #slots = new Map<number, number>();

  /** `rows`: how many the matrix has room for at first. */
  constructor(module: DotsModule, dims: number, rows: number) {
    this.dims = dims;
    this.#stride = strideOf(dims);
    const instance = new (wasm as WasmApi).Instance(module);
    this.#memory = instance.exports['memory'] as WasmMemory;
    this.#dots = instance.exports['dots'] as Dots;
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

  #reserve(rows: number): void {
    if (rows <= this.#capacity) return;
    const capacity = Math.max(rows, this.#capacity + MIN_GROWTH, Math.ceil(this.#capacity * GROWTH));
    const end = this.#rowsAt() + capacity * this.#stride * 4 + capacity * 4;
    const pages = Math.ceil(end / PAGE) - this.#memory.buffer.byteLength / PAGE;
    if (pages > 0) this.#memory.grow(pages);
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
  }

  remove(rowId: number): void {
    const slot = this.#slots.get(rowId);
    if (slot === undefined) return;
    this.#slots.delete(rowId);
    const last = --this.#count;
    if (slot !== last) {
      const bytes = this.#stride * 4;
      const base = this.#rowsAt();
      new Uint8Array(this.#memory.buffer).copyWithin(
        base + slot * bytes,
        base + last * bytes,
        base + (last + 1) * bytes,
      );
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
  nearest(query: Float32Array, limit: number): [string, number][] {
    const count = this.#count;
    if (count === 0 || limit <= 0) return [];
    writeUnit(new Float32Array(this.#memory.buffer, 0, this.#stride), query, this.dims);
    const out = this.#rowsAt() + this.#capacity * this.#stride * 4;
    this.#dots(0, this.#rowsAt(), count, this.#stride, out);
    const scores = new Float32Array(this.#memory.buffer, out, count);
    const top = topSlots(scores, Math.min(limit, count));
    return top.map((slot) => [this.#ids[slot] as string, scores[slot] as number]);
  }
}
