import type { Logger } from '@permafrost/core';
import type { VectorHit } from '@permafrost/core/store';
import { Binary, type Collection, type Document } from 'mongodb';
import type { VectorDoc } from './mongo-memory-docs.js';

export const VECTOR_SEARCH_INDEX = 'permafrost_vectors';

/**
 * True when the server knows the `$vectorSearch` stage (Atlas / mongot); FerretDB answers 40234.
 * It queries an index that never exists: no results, and no dimension check against the real one.
 */
export async function probeVectorSearch(coll: Collection<VectorDoc>): Promise<boolean> {
  try {
    await coll
      .aggregate([
        {
          $vectorSearch: {
            index: 'permafrost_probe',
            path: 'v',
            queryVector: [0, 0],
            numCandidates: 1,
            limit: 1,
          },
        },
      ])
      .toArray();
    return true;
  } catch {
    return false;
  }
}

/**
 * Atlas Vector Search behind the VectorIndex port: one `vectorSearch` index per vector collection,
 * created once the dimensions are known, queried with `exact: true` (ENN, so results equal the
 * in-process scan) and the scope as a pre-filter. Until the index is queryable, or if a query
 * fails, the caller falls back to the in-process scan. Atlas Search indexes are updated
 * asynchronously: a vector is found natively only once mongot has replicated it.
 */
export class NativeVectorSearch {
  readonly #ready = new WeakMap<Collection<VectorDoc>, number>();
  readonly #logger: Logger | undefined;

  constructor(logger: Logger | undefined) {
    this.#logger = logger;
  }

  /** Creates the search index for these dimensions if it does not exist; true when queryable. */
  async ensure(coll: Collection<VectorDoc>, dims: number): Promise<boolean> {
    if (this.#ready.get(coll) === dims) return true;
    try {
      const existing = (await coll.listSearchIndexes(VECTOR_SEARCH_INDEX).toArray()) as {
        queryable?: boolean;
      }[];
      const index = existing[0];
      if (!index) {
        await coll.createSearchIndex({
          name: VECTOR_SEARCH_INDEX,
          type: 'vectorSearch',
          definition: {
            fields: [
              { type: 'vector', path: 'v', numDimensions: dims, similarity: 'cosine' },
              { type: 'filter', path: 'guildId' },
              { type: 'filter', path: 'active' },
              { type: 'filter', path: 'sk' },
            ],
          },
        });
        return false;
      }
      if (index.queryable !== true) return false;
      this.#ready.set(coll, dims);
      return true;
    } catch (error) {
      this.#logger?.({
        level: 'warn',
        event: 'store.mongo.vector_index_unavailable',
        data: { collection: coll.collectionName },
        error,
      });
      return false;
    }
  }

  async search(
    coll: Collection<VectorDoc>,
    vector: Float32Array,
    filter: Document,
    limit: number,
  ): Promise<VectorHit[] | null> {
    try {
      const rows = await coll
        .aggregate<{ id: string; score: number }>([
          {
            $vectorSearch: {
              index: VECTOR_SEARCH_INDEX,
              path: 'v',
              queryVector: Binary.fromFloat32Array(vector),
              exact: true,
              limit,
              filter,
            },
          },
          { $project: { _id: 0, id: 1, score: { $meta: 'vectorSearchScore' } } },
        ])
        .toArray();
      // Atlas reports cosine as (1 + cos) / 2.
      return rows.map((r) => ({ id: r.id, score: 2 * r.score - 1 }));
    } catch (error) {
      this.#logger?.({
        level: 'warn',
        event: 'store.mongo.vector_search_failed',
        data: { collection: coll.collectionName },
        error,
      });
      return null;
    }
  }
}
