import type { NodeRef, Polarity, Relation } from '@permafrost/core';
import {
  newRelation,
  type RelationRef,
  type RelationUpsert,
  reinforceRelation,
} from '@permafrost/core/store';
import type { Document } from 'mongodb';
import { findAny } from './find-any.js';
import { DELETE } from './guard-types.js';
import type { MongoContext } from './mongo-context.js';
import { activeRelationKey, endedRelationKey, fromRelationDoc } from './mongo-graph-mapping.js';
import {
  finite,
  newEpoch,
  randomToken,
  requireId,
  requireIds,
  requireString,
  validDate,
} from './mongo-keys.js';
import type { RelationDoc } from './mongo-memory-docs.js';
import { raw } from './raw-doc.js';

const byWeight = (a: RelationDoc, b: RelationDoc) =>
  b.weight - a.weight || b.updatedAt.getTime() - a.updatedAt.getTime() || (a._id < b._id ? -1 : 1);

const byStart = (a: RelationDoc, b: RelationDoc) =>
  a.validFrom.getTime() - b.validFrom.getTime() || (a._id < b._id ? -1 : 1);

const nodeOf = (n: NodeRef) => ({ type: requireString(n.type, 'node type'), id: requireId(n.id, 'node id') });

/** Stored relation documents with these natural keys (src, dst, verb, validFrom), active or ended. */
export async function relationsByRef(
  ctx: MongoContext,
  guildId: string,
  refs: readonly RelationRef[],
): Promise<RelationDoc[]> {
  const alternatives = refs.map((r) => ({
    srcType: { $eq: r.srcType },
    srcId: { $eq: r.srcId },
    dstType: { $eq: r.dstType },
    dstId: { $eq: r.dstId },
    verb: { $eq: r.verb },
    validFrom: { $eq: r.validFrom },
  }));
  return findAny<RelationDoc>(ctx, raw(ctx.c.relations), { guildId: { $eq: guildId } }, alternatives);
}

interface CheckedUpsert {
  /** The edge's active document. */
  readonly key: string;
  readonly identity: Pick<Relation, 'guildId' | 'srcType' | 'srcId' | 'dstType' | 'dstId' | 'verb'>;
  readonly polarity: Polarity;
  readonly confidence: number;
  readonly evidenceFactId: string;
  readonly at: Date;
}

function checkedUpsert(input: RelationUpsert): CheckedUpsert {
  const src = nodeOf(input.src);
  const dst = nodeOf(input.dst);
  const identity = {
    guildId: requireId(input.guildId, 'guildId'),
    srcType: src.type as Relation['srcType'],
    srcId: src.id,
    dstType: dst.type as Relation['dstType'],
    dstId: dst.id,
    verb: requireId(input.verb, 'verb'),
  };
  return {
    key: activeRelationKey(identity),
    identity,
    polarity: requireString(input.polarity, 'polarity') as Polarity,
    confidence: finite(input.confidence, 'confidence'),
    evidenceFactId: requireString(input.evidenceFactId, 'evidenceFactId'),
    at: validDate(input.at, 'at'),
  };
}

/** The active documents these upserts write. */
export const relationUpsertKeys = (inputs: readonly RelationUpsert[]): string[] => [
  ...new Set(inputs.map((input) => checkedUpsert(input).key)),
];

/** The active document a first upsert of an edge creates. */
function created(u: CheckedUpsert, rid: string): RelationDoc {
  const { identity } = u;
  const relation = newRelation({
    guildId: identity.guildId,
    src: { type: identity.srcType, id: identity.srcId },
    dst: { type: identity.dstType, id: identity.dstId },
    verb: identity.verb,
    polarity: u.polarity,
    confidence: u.confidence,
    evidenceFactId: u.evidenceFactId,
    at: u.at,
  });
  return { _id: '', ep: '', rid, ...relation, evidenceFactIds: [...relation.evidenceFactIds] };
}

/**
 * Typed relations. The active edge of (src, dst, verb) is the document at `activeRelationKey`, so
 * there is at most one without a partial unique index; merges are guarded read-modify-writes.
 * Ending an edge copies it to its `endedRelationKey` (idempotent upsert) while holding the active
 * version, then deletes the active document: a crash in between leaves the edge active and the
 * retry converges on the same ended copy.
 */
export class MongoRelations {
  readonly #ctx: MongoContext;

  constructor(ctx: MongoContext) {
    this.#ctx = ctx;
  }

  async upsert(input: RelationUpsert): Promise<Relation> {
    const stored = await this.upsertMany([input]);
    return stored[0] as Relation;
  }

  /**
   * Relation upserts, each in order, whatever their number in one guarded write: the upserts of
   * one edge are folded into one change of its active document. `known`: documents read moments
   * ago. The stored relation per input.
   */
  async upsertMany(
    inputs: readonly RelationUpsert[],
    known?: ReadonlyMap<string, RelationDoc | null>,
  ): Promise<Relation[]> {
    await this.#ctx.enter();
    const keyed = inputs.map(checkedUpsert);
    const byKey = new Map<string, CheckedUpsert[]>();
    for (const u of keyed) byKey.set(u.key, [...(byKey.get(u.key) ?? []), u]);
    if (byKey.size === 0) return [];
    const rids = new Map([...byKey.keys()].map((key) => [key, randomToken()]));
    const outcomes = await this.#ctx.guard.mutateMany(
      this.#ctx.c.relations,
      [...byKey.keys()],
      (current, key) => {
        let doc: RelationDoc | null = current;
        for (const u of byKey.get(key) ?? [])
          doc = doc ? { ...doc, ...reinforceRelation(doc, u) } : created(u, rids.get(key) as string);
        return doc;
      },
      known ? { known, knownIsFresh: true } : {},
    );
    return keyed.map(({ key }) => fromRelationDoc(outcomes.get(key)?.after as RelationDoc));
  }

  async relationsOf(guildId: string, nodes: readonly NodeRef[], limitPerNode: number): Promise<Relation[]> {
    await this.#ctx.enter();
    const wanted = nodes.map(nodeOf);
    if (wanted.length === 0 || limitPerNode <= 0) return [];
    const touching = wanted.flatMap((n) => [
      { srcType: n.type, srcId: n.id },
      { dstType: n.type, dstId: n.id },
    ]);
    const docs = await this.#active(requireString(guildId, 'guildId'), { $or: touching });
    const seen = new Set<string>();
    const out: Relation[] = [];
    for (const n of wanted) {
      const mine = docs
        .filter(
          (r) => (r.srcType === n.type && r.srcId === n.id) || (r.dstType === n.type && r.dstId === n.id),
        )
        .sort(byWeight)
        .slice(0, limitPerNode);
      for (const r of mine) {
        if (seen.has(r._id)) continue;
        seen.add(r._id);
        out.push(fromRelationDoc(r));
      }
    }
    return out;
  }

  /** Every relation (any validity) with one of the nodes as source or destination. */
  async touching(guildId: string, nodes: readonly NodeRef[]): Promise<Relation[]> {
    await this.#ctx.enter();
    const g = requireString(guildId, 'guildId');
    const alternatives = nodes.map(nodeOf).flatMap((n) => [
      { srcType: { $eq: n.type }, srcId: { $eq: n.id } },
      { dstType: { $eq: n.type }, dstId: { $eq: n.id } },
    ]);
    const docs = await findAny<RelationDoc>(
      this.#ctx,
      raw(this.#ctx.c.relations),
      { guildId: { $eq: g } },
      alternatives,
    );
    return docs.sort(byStart).map(fromRelationDoc);
  }

  /** Every relation (any validity) whose evidence names one of these facts. */
  async citing(guildId: string, factIds: readonly string[]): Promise<Relation[]> {
    await this.#ctx.enter();
    const ids = requireIds(factIds, 'fact id');
    if (ids.length === 0) return [];
    const filter = { guildId: { $eq: requireString(guildId, 'guildId') }, evidenceFactIds: { $in: ids } };
    const docs = (await this.#ctx.c.relations.find(filter, this.#ctx.readOpts()).toArray()) as RelationDoc[];
    return docs.sort(byStart).map(fromRelationDoc);
  }

  async dropEvidence(guildId: string, factIds: readonly string[], at: Date): Promise<number> {
    await this.#ctx.enter();
    const when = validDate(at, 'at');
    const ids = requireIds(factIds, 'fact id');
    if (ids.length === 0) return 0;
    const drop = new Set(ids);
    const docs = await this.#active(requireString(guildId, 'guildId'), { evidenceFactIds: { $in: ids } });
    const relations = this.#ctx.c.relations;
    const results = await this.#ctx.each(docs, async (doc) => {
      const outcome = await this.#ctx.guard.mutate(
        relations,
        doc._id,
        (current) => {
          if (!current || current.validUntil !== null) return null;
          if (!current.evidenceFactIds.some((id) => drop.has(id))) return null;
          const evidence = current.evidenceFactIds.filter((id) => !drop.has(id));
          if (evidence.length === 0) return DELETE;
          return {
            ...current,
            evidenceFactIds: evidence,
            weight: Math.round(current.weight * 0.8 * 1e6) / 1e6,
            updatedAt: when,
          };
        },
        {
          beforeWrite: async (before, after) => {
            if (after !== DELETE) return;
            const ended: RelationDoc = {
              ...before,
              evidenceFactIds: [],
              validUntil: when,
              updatedAt: when,
              ep: newEpoch(),
            };
            ended._id = endedRelationKey(ended);
            await this.#ctx.upsert(relations, ended._id, ended);
          },
        },
      );
      return outcome.changed;
    });
    return results.filter(Boolean).length;
  }

  async #active(guildId: string, extra: Document): Promise<RelationDoc[]> {
    const filter = { guildId: { $eq: guildId }, validUntil: null, ...extra };
    return (await this.#ctx.c.relations.find(filter, this.#ctx.readOpts()).toArray()) as RelationDoc[];
  }
}
