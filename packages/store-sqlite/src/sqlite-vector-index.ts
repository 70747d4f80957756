import type { VectorHit, VectorIndex, VectorItem, VectorKind, VectorQuery } from '@permafrost/core/store';
import type { SqliteConnection } from './connection.js';
import type { VecTable } from './vec-table.js';

/** Exact cosine KNN with sqlite-vec, in the same connection (and transaction) as everything else. */
export class SqliteVectorIndex implements VectorIndex {
  readonly #c: SqliteConnection;
  readonly #vec: VecTable;

  constructor(connection: SqliteConnection, vec: VecTable) {
    this.#c = connection;
    this.#vec = vec;
  }

  async upsert(items: readonly VectorItem[]): Promise<void> {
    await this.#c.write(() => this.#vec.upsert(items));
  }

  setActive(guildId: string, kind: VectorKind, ids: readonly string[], active: boolean): Promise<number> {
    return this.#c.write(() => this.#vec.setActive(guildId, kind, ids, active));
  }

  delete(guildId: string, kind: VectorKind, ids: readonly string[]): Promise<number> {
    return this.#c.write(() => this.#vec.delete(guildId, kind, ids));
  }

  search(query: VectorQuery): Promise<VectorHit[]> {
    return this.#c.run(() => this.#vec.search(query));
  }

  count(guildId: string, kind: VectorKind, ids?: readonly string[]): Promise<number> {
    return this.#c.run(() =>
      ids === undefined ? this.#vec.count(guildId, kind) : this.#vec.countExisting(guildId, kind, ids),
    );
  }

  dimensions(): Promise<number | null> {
    return this.#c.run(() => this.#vec.dims());
  }

  async reset(): Promise<void> {
    await this.#c.write(() => this.#vec.reset());
  }
}
