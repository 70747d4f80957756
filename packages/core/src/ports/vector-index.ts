export type VectorKind = 'fact' | 'message';

export interface VectorItem {
  readonly kind: VectorKind;
  readonly id: string;
  readonly guildId: string;
  /** Subject user of a fact (null = server fact); author of a message. */
  readonly subjectId: string | null;
  readonly active: boolean;
  readonly vector: Float32Array;
}

export interface VectorQuery {
  readonly kind: VectorKind;
  readonly guildId: string;
  readonly vector: Float32Array;
  readonly limit: number;
  /** Only these subjects (plus server items when includeServer). */
  readonly subjectIds?: readonly string[];
  readonly includeServer?: boolean;
  /** Only server items (subjectId null). */
  readonly serverOnly?: boolean;
  /** Default true: inactive items are never returned. */
  readonly activeOnly?: boolean;
}

export interface VectorHit {
  readonly id: string;
  /** Cosine similarity in [-1, 1]. */
  readonly score: number;
}

/** Nearest-neighbour search over every item in scope (no recency cap). */
export interface VectorIndex {
  /** Inserts or replaces items by (kind, guildId, id). */
  upsert(items: readonly VectorItem[]): Promise<void>;
  setActive(guildId: string, kind: VectorKind, ids: readonly string[], active: boolean): Promise<number>;
  delete(guildId: string, kind: VectorKind, ids: readonly string[]): Promise<number>;
  /** Exact top-`limit` by cosine similarity among items in scope. */
  search(query: VectorQuery): Promise<VectorHit[]>;
  /** How many items of this kind the guild has vectors for; with `ids`, how many of those items have one. */
  count(guildId: string, kind: VectorKind, ids?: readonly string[]): Promise<number>;
  /**
   * Vector length fixed by the first upsert (null while empty and never set). Upserting or
   * searching with another length fails with MemoryError DIMENSION_MISMATCH.
   */
  dimensions(): Promise<number | null>;
  /** Deletes every vector of every guild and forgets the dimensions (used by reindex). */
  reset(): Promise<void>;
}
