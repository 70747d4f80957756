import { ErrorCode, MemoryError } from '../../errors/index.js';
import { cosine } from '../../math/vector-math.js';
import { VectorIndexBase } from '../../ports/port-bases.js';
import type { VectorHit, VectorItem, VectorKind, VectorQuery } from '../../ports/vector-index.js';
import { enter, key, type MemoryState } from './state.js';

/** Exact brute-force cosine search over every item in scope. */
export class InMemoryVectorIndex extends VectorIndexBase {
  readonly #state: MemoryState;

  constructor(state: MemoryState) {
    super();
    this.#state = state;
  }

  #checkDims(length: number, fix: boolean): void {
    const dims = this.#state.vectorDims;
    if (dims === null) {
      if (fix) this.#state.vectorDims = length;
      return;
    }
    if (dims !== length)
      throw new MemoryError(ErrorCode.DIMENSION_MISMATCH, 'vector length differs from the stored vectors');
  }

  override async dimensions(): Promise<number | null> {
    await enter(this.#state);
    return this.#state.vectorDims;
  }

  override async reset(): Promise<void> {
    await enter(this.#state);
    for (const [k] of [...this.#state.vectors.entries()]) this.#state.vectors.delete(k);
    this.#state.vectorDims = null;
  }

  override async upsert(items: readonly VectorItem[]): Promise<void> {
    await enter(this.#state);
    for (const item of items) this.#checkDims(item.vector.length, false);
    for (const item of items) this.#checkDims(item.vector.length, true);
    for (const item of items)
      this.#state.vectors.set(key(item.guildId, item.kind, item.id), {
        ...item,
        vector: Float32Array.from(item.vector),
      });
  }

  override async setActive(
    guildId: string,
    kind: VectorKind,
    ids: readonly string[],
    active: boolean,
  ): Promise<number> {
    await enter(this.#state);
    let n = 0;
    for (const id of ids) {
      const k = key(guildId, kind, id);
      const item = this.#state.vectors.get(k);
      if (!item) continue;
      this.#state.vectors.set(k, { ...item, active });
      n++;
    }
    return n;
  }

  override async delete(guildId: string, kind: VectorKind, ids: readonly string[]): Promise<number> {
    await enter(this.#state);
    let n = 0;
    for (const id of ids) if (this.#state.vectors.delete(key(guildId, kind, id))) n++;
    return n;
  }

  override async search(query: VectorQuery): Promise<VectorHit[]> {
    await enter(this.#state);
    this.#checkDims(query.vector.length, false);
    const activeOnly = query.activeOnly ?? true;
    const subjects = query.subjectIds ? new Set(query.subjectIds) : null;
    const hits: VectorHit[] = [];
    for (const item of this.#state.vectors.values()) {
      if (item.guildId !== query.guildId || item.kind !== query.kind) continue;
      if (activeOnly && !item.active) continue;
      if (query.serverOnly && item.subjectId !== null) continue;
      if (subjects) {
        const inScope = item.subjectId === null ? query.includeServer === true : subjects.has(item.subjectId);
        if (!inScope) continue;
      }
      hits.push({ id: item.id, score: cosine(query.vector, item.vector) });
    }
    hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
    return hits.slice(0, query.limit);
  }

  override async count(guildId: string, kind: VectorKind, ids?: readonly string[]): Promise<number> {
    await enter(this.#state);
    if (ids !== undefined)
      return [...new Set(ids)].filter((id) => this.#state.vectors.has(key(guildId, kind, id))).length;
    let n = 0;
    for (const item of this.#state.vectors.values()) if (item.guildId === guildId && item.kind === kind) n++;
    return n;
  }
}
