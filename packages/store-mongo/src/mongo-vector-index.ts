import { ErrorCode, MemoryError } from '@permafrost/core';
import {
  cosine,
  type VectorHit,
  VectorIndexBase,
  type VectorItem,
  type VectorKind,
  type VectorQuery,
} from '@permafrost/core/store';
import { Binary, type Collection, type Document } from 'mongodb';
import { insertTolerant } from './insert-tolerant.js';
import type { MongoContext } from './mongo-context.js';
import { docKey, newEpoch, requireId, requireIds, requireString, SERVER_SCOPE } from './mongo-keys.js';
import type { VectorDoc } from './mongo-memory-docs.js';
import { NativeVectorSearch } from './mongo-vector-search.js';
import { raw } from './raw-doc.js';
import { TopK } from './top-k.js';

const DIMS_KEY = 'vectors.dims';
/**
 * How long a write may rely on the vector length it last read: one extraction commit writes fact
 * and message vectors moments apart, and each re-read is a round trip. Only a reset by another
 * process (a reindex) changes the length; vectors written in this window with the old length are
 * skipped by every search (it scores only vectors of the query's length) until reindexed again.
 */
const DIMS_REUSE_MS = 5_000;
/** Vectors per cursor batch of the in-process scan: what the process holds at once, beside the top k. */
const SCAN_BATCH = 1000;
const SERVER = SERVER_SCOPE;
const mismatch = () =>
  new MemoryError(ErrorCode.DIMENSION_MISMATCH, 'vector length differs from the stored vectors');

export type VectorSearchMode = 'auto' | 'in-process';

/**
 * Exact nearest neighbours. Candidates are selected by an indexed query (guild, active, subject
 * scope; no recency cap) and ranked by cosine in process; vectors are BSON Binary subtype 9
 * (packed float32, bit-exact). Where the server has `$vectorSearch` (Atlas) and `mode` is auto,
 * the same query runs natively once the search index is queryable.
 */
export class MongoVectorIndex extends VectorIndexBase {
  readonly #ctx: MongoContext;
  readonly #native: NativeVectorSearch;
  readonly #mode: VectorSearchMode;

  constructor(ctx: MongoContext, mode: VectorSearchMode) {
    super();
    this.#ctx = ctx;
    this.#mode = mode;
    this.#native = new NativeVectorSearch(ctx.logger);
  }

  #coll(kind: VectorKind): Collection<VectorDoc> {
    if (kind === 'fact') return this.#ctx.c.factVectors;
    if (kind === 'message') return this.#ctx.c.messageVectors;
    throw new MemoryError(ErrorCode.SCHEMA_INVALID, 'unknown vector kind');
  }

  override async dimensions(): Promise<number | null> {
    await this.#ctx.enter();
    return this.#dims();
  }

  #dims(): Promise<number | null> {
    return this.#ctx.shared('store_meta', DIMS_KEY, async () => {
      const doc = await this.#ctx.c.storeMeta.findOne({ _id: DIMS_KEY }, this.#ctx.opts());
      return typeof doc?.value === 'number' ? doc.value : null;
    });
  }

  override async reset(): Promise<void> {
    await this.#ctx.enter();
    await this.#ctx.c.factVectors.deleteMany({}, this.#ctx.opts());
    await this.#ctx.c.messageVectors.deleteMany({}, this.#ctx.opts());
    await this.#ctx.c.storeMeta.deleteOne({ _id: DIMS_KEY }, this.#ctx.opts());
    this.#ctx.wrote('store_meta');
  }

  override async upsert(items: readonly VectorItem[]): Promise<void> {
    await this.#ctx.enter();
    if (items.length === 0) return;
    const lengths = new Set(items.map((it) => it.vector.length));
    let dims = await this.#ctx.recent('store_meta', DIMS_KEY, DIMS_REUSE_MS, () => this.#dims());
    if (dims === null) {
      const [first] = lengths;
      if (lengths.size !== 1 || first === undefined) throw mismatch();
      this.#ctx.wrote('store_meta');
      if (this.#ctx.session())
        await this.#ctx.c.storeMeta.insertOne({ _id: DIMS_KEY, value: first }, this.#ctx.opts());
      else await insertTolerant(raw(this.#ctx.c.storeMeta), [{ _id: DIMS_KEY, value: first }]);
      dims = await this.#dims();
    }
    for (const len of lengths) if (len !== dims) throw mismatch();
    const byKind = new Map<VectorKind, Map<string, VectorDoc>>();
    for (const it of items) {
      const guildId = requireId(it.guildId, 'guildId');
      const id = requireId(it.id, 'vector id');
      const subjectId = it.subjectId === null ? null : requireString(it.subjectId, 'subjectId');
      for (const x of it.vector)
        if (!Number.isFinite(x))
          throw new MemoryError(ErrorCode.SCHEMA_INVALID, 'vector has a non-finite value');
      this.#coll(it.kind);
      const docs = byKind.get(it.kind) ?? new Map<string, VectorDoc>();
      const key = docKey(guildId, id);
      docs.set(key, {
        _id: key,
        ep: '',
        guildId,
        id,
        subjectId,
        sk: subjectId ?? SERVER,
        active: it.active === true,
        dims: it.vector.length,
        v: Binary.fromFloat32Array(Float32Array.from(it.vector)),
      });
      byKind.set(it.kind, docs);
    }
    for (const [kind, docs] of byKind) {
      const coll = this.#coll(kind);
      let keys = [...docs.keys()];
      if (!this.#ctx.session()) {
        // New vectors (the usual case) in one insert, without reading first; the ones that
        // exist already (duplicate `_id`) are replaced through the guard.
        this.#ctx.wrote(coll.collectionName);
        const fresh = keys.map((k) => ({ ...(docs.get(k) as VectorDoc), ep: newEpoch() }));
        const lost = await insertTolerant(raw(coll), fresh);
        keys = keys.filter((_, i) => lost.has(i));
      }
      if (keys.length > 0)
        await this.#ctx.guard.mutateMany(coll, keys, (_current, key) => docs.get(key) as VectorDoc);
    }
  }

  override async setActive(
    guildId: string,
    kind: VectorKind,
    ids: readonly string[],
    active: boolean,
  ): Promise<number> {
    await this.#ctx.enter();
    const g = requireString(guildId, 'guildId');
    const keys = requireIds(ids, 'vector id').map((id) => docKey(g, id));
    const out = await this.#ctx.guard.mutateMany(this.#coll(kind), keys, (v) =>
      v ? { ...v, active: active === true } : null,
    );
    return keys.filter((k) => out.get(k)?.before).length;
  }

  override async delete(guildId: string, kind: VectorKind, ids: readonly string[]): Promise<number> {
    await this.#ctx.enter();
    const g = requireString(guildId, 'guildId');
    return this.#ctx.deleteIds(
      this.#coll(kind),
      requireIds(ids, 'vector id').map((id) => docKey(g, id)),
    );
  }

  override async search(query: VectorQuery): Promise<VectorHit[]> {
    await this.#ctx.enter();
    const coll = this.#coll(query.kind);
    const limit = Math.max(0, Math.floor(query.limit));
    let scopes: string[] | null = null;
    if (query.serverOnly) scopes = [SERVER];
    else if (query.subjectIds) {
      const ids = [...new Set(requireIds(query.subjectIds, 'subjectIds'))];
      scopes = query.includeServer ? [...ids, SERVER] : ids;
    }
    const base: Document = {
      guildId: { $eq: requireString(query.guildId, 'guildId') },
      ...((query.activeOnly ?? true) ? { active: true } : {}),
    };
    const filter: Document =
      scopes === null ? base : { ...base, sk: scopes.length === 1 ? scopes[0] : { $in: scopes } };
    const checkDims = (dims: number | null): dims is number => {
      if (dims !== null && query.vector.length !== dims) throw mismatch();
      return dims !== null && limit > 0 && scopes?.length !== 0;
    };
    if (this.#mode === 'auto' && this.#ctx.profile.vectorSearch && !this.#ctx.session()) {
      const dims = await this.#dims();
      if (!checkDims(dims)) return [];
      if (await this.#native.ensure(coll, dims)) {
        const hits = await this.#native.search(coll, query.vector, filter, limit);
        if (hits) return hits;
      }
    }
    // The dimension check and the scan run together (one round trip, not two); a scan of vectors of
    // another size scores nothing and is thrown away by the check.
    const [dims, top] = await Promise.all([
      this.#dims(),
      limit > 0 && scopes?.length !== 0 ? this.#scan(coll, query.vector, base, filter, scopes, limit) : null,
    ]);
    if (!checkDims(dims) || top === null) return [];
    return top.sorted();
  }

  /** Brute-force top-k by cosine over the matching vectors, streamed in batches. */
  async #scan(
    coll: Collection<VectorDoc>,
    vector: Float32Array,
    base: Document,
    filter: Document,
    scopes: readonly string[] | null,
    limit: number,
  ): Promise<TopK> {
    const top = new TopK(limit);
    const score = (doc: Pick<VectorDoc, 'id' | 'v'>) => {
      const v = doc.v.toFloat32Array();
      if (v.length === vector.length) top.offer({ id: doc.id, score: cosine(vector, v) });
    };
    const projection = { _id: 0, id: 1, v: 1 };
    if (scopes !== null && scopes.length > 1 && this.#ctx.ferretPlan && !this.#ctx.session()) {
      // One equality query per scope (the only filters FerretDB pushes down), concurrently.
      await this.#ctx.each(scopes, async (sk) => {
        const cursor = coll.find({ ...base, sk }, { projection, batchSize: SCAN_BATCH });
        for await (const doc of cursor as AsyncIterable<Pick<VectorDoc, 'id' | 'v'>>) score(doc);
      });
    } else {
      const cursor = coll.find(filter, { projection, batchSize: SCAN_BATCH, ...this.#ctx.opts() });
      for await (const doc of cursor as AsyncIterable<Pick<VectorDoc, 'id' | 'v'>>) score(doc);
    }
    return top;
  }

  override async count(guildId: string, kind: VectorKind, ids?: readonly string[]): Promise<number> {
    await this.#ctx.enter();
    const g = requireString(guildId, 'guildId');
    if (ids === undefined) return this.#coll(kind).countDocuments({ guildId: { $eq: g } }, this.#ctx.opts());
    const keys = requireIds(ids, 'vector id').map((id) => docKey(g, id));
    return (await this.#ctx.readMany(this.#coll(kind), keys)).size;
  }
}
