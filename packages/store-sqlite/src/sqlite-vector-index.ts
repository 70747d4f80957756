import type { VectorHit, VectorItem, VectorKind, VectorQuery } from '@permafrost/core/store';
import { VectorIndexBase } from '@permafrost/core/store';
import type { SqliteConnection } from './connection.js';
import type { VecTable } from './vec-table.js';
import { keptSearch } from './vector-scan/message-vectors.js';

/** Exact cosine KNN with sqlite-vec, in the same connection (and transaction) as everything else. */
export class SqliteVectorIndex extends VectorIndexBase {
  readonly #c: SqliteConnection;
  readonly #vec: VecTable;

  constructor(connection: SqliteConnection, vec: VecTable) {
    super();
    this.#c = connection;
    this.#vec = vec;
  }

  override async upsert(items: readonly VectorItem[]): Promise<void> {
    await this.#c.write(() => this.#vec.upsert(items));
  }

  override setActive(
    guildId: string,
    kind: VectorKind,
    ids: readonly string[],
    active: boolean,
  ): Promise<number> {
    return this.#c.write(() => this.#vec.setActive(guildId, kind, ids, active));
  }

  override delete(guildId: string, kind: VectorKind, ids: readonly string[]): Promise<number> {
    return this.#c.write(() => this.#vec.delete(guildId, kind, ids));
  }

  override async search(query: VectorQuery): Promise<VectorHit[]> {
    // One connection turn, unless a big guild's first guild-wide search has to wait (with the event
    // loop free) while the read thread reads its vectors.
    const first = await this.#c.run(() => {
      const load = keptSearch(query) ? this.#loadAhead(query) : null;
      return load ? { load } : { hits: this.#vec.search(query) };
    });
    if ('hits' in first) return first.hits;
    await first.load;
    return this.#c.run(() => this.#vec.search(query));
  }

  #loadAhead(query: VectorQuery): Promise<void> | null {
    const dims = this.#vec.dims();
    return dims === query.vector.length ? this.#vec.keptMessages.loadAhead(query.guildId, dims) : null;
  }

  override count(guildId: string, kind: VectorKind, ids?: readonly string[]): Promise<number> {
    return this.#c.run(() =>
      ids === undefined ? this.#vec.count(guildId, kind) : this.#vec.countExisting(guildId, kind, ids),
    );
  }

  override dimensions(): Promise<number | null> {
    return this.#c.run(() => this.#vec.dims());
  }

  override async reset(): Promise<void> {
    await this.#c.write(() => this.#vec.reset());
  }
}
