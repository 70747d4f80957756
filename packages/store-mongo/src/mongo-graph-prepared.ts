import type { GraphWrites } from '@permafrost/core/store';
import type { Collection } from 'mongodb';
import type { MongoContext } from './mongo-context.js';
import { entityWrites } from './mongo-entities.js';
import { type AliasEntry, indexEntityAliases } from './mongo-entity-aliases.js';
import type { EntityAliasDoc, EntityDoc, RelationDoc } from './mongo-memory-docs.js';
import { relationUpsertKeys } from './mongo-relations.js';

/** A preparation is used within this long, or dropped (a commit's insert takes a few round trips). */
const PREPARED_TTL_MS = 30_000;
/** Documents remembered per kind at most (the oldest preparations go first). */
const MAX_PREPARED = 4_096;

/** A read or write started ahead; `null` once it failed (the writes then do it themselves). */
interface Pending<T> {
  readonly value: Promise<{ readonly v: T } | null>;
  readonly at: number;
}

/** Documents by `_id`, read now; null for each id that is not stored. */
async function readKnown<D extends { _id: string }>(
  ctx: MongoContext,
  coll: Collection<D>,
  ids: readonly string[],
): Promise<Map<string, D | null>> {
  const found = await ctx.readMany(coll, ids);
  return new Map(ids.map((id) => [id, found.get(id) ?? null]));
}

/** The alias, entity and relation documents graph writes touch, read at once (null: not stored). */
export function readGraphDocs(
  ctx: MongoContext,
  aliasKeys: readonly string[],
  entityKeys: readonly string[],
  relationKeys: readonly string[],
): Promise<
  [Map<string, EntityAliasDoc | null>, Map<string, EntityDoc | null>, Map<string, RelationDoc | null>]
> {
  return ctx.all(
    () => readKnown(ctx, ctx.c.entityAliases, aliasKeys),
    () => readKnown(ctx, ctx.c.entities, entityKeys),
    () => readKnown(ctx, ctx.c.relations, relationKeys),
  );
}

/** What `take` hands to the graph writes: what the preparations covered, the rest to do. */
export interface TakenPreparation {
  readonly entities: Map<string, EntityDoc | null>;
  readonly relations: Map<string, RelationDoc | null>;
  /** Alias document keys whose slugs a preparation has written to the alias index. */
  readonly indexed: ReadonlySet<string>;
}

/**
 * Graph writes prepared ahead (`GraphStore.prepareGraphWrites`), per document: the entity and
 * relation documents they touch, read while the facts' insert runs, and the alias index entries,
 * written from that read (the index is written before the entities it names and readers confirm
 * every entry against the entity document, so an entry for an entity that never comes is
 * ignored). The graph writes that follow take what they find here (each document once) and read
 * or index only the rest. Process memory only, bounded and short-lived; a document another
 * writer changed meanwhile costs the guarded write a retry from a fresh read, as any read does.
 */
export class PreparedGraph {
  readonly #entities = new Map<string, Pending<EntityDoc | null>>();
  readonly #relations = new Map<string, Pending<RelationDoc | null>>();
  readonly #aliases = new Map<string, Pending<readonly string[]>>();

  /** Reads what `writes` touch and writes their alias index entries; rejects when that failed. */
  async prepare(ctx: MongoContext, writes: GraphWrites): Promise<void> {
    const entities = entityWrites(writes.entities);
    const relationKeys = relationUpsertKeys(writes.relations);
    const reads = readGraphDocs(ctx, [...entities.aliases.keys()], [...entities.byKey.keys()], relationKeys);
    const indexed = reads.then(([aliasDocs]) => indexEntityAliases(ctx, entities.aliases, aliasDocs));
    const at = Date.now();
    const settle = <T>(p: Promise<T>): Promise<{ readonly v: T } | null> =>
      p.then(
        (v) => ({ v }),
        () => null,
      );
    for (const key of entities.byKey.keys())
      remember(this.#entities, key, { value: settle(reads.then(([, docs]) => docs.get(key) ?? null)), at });
    for (const key of relationKeys)
      remember(this.#relations, key, {
        value: settle(reads.then(([, , docs]) => docs.get(key) ?? null)),
        at,
      });
    for (const [key, entry] of entities.aliases)
      remember(this.#aliases, key, { value: settle(indexed.then(() => entry.slugs)), at });
    await indexed;
  }

  /**
   * Takes the preparations of these documents (each is used once), once their reads and alias
   * writes have landed: what failed or was never prepared is left to the caller.
   */
  async take(
    entityKeys: readonly string[],
    relationKeys: readonly string[],
    aliases: ReadonlyMap<string, AliasEntry>,
  ): Promise<TakenPreparation> {
    const [entities, relations, slugs] = await Promise.all([
      taken(this.#entities, entityKeys),
      taken(this.#relations, relationKeys),
      taken(this.#aliases, [...aliases.keys()]),
    ]);
    const indexed = new Set<string>();
    for (const [key, written] of slugs)
      if ((aliases.get(key)?.slugs ?? []).every((s) => written.includes(s))) indexed.add(key);
    return { entities, relations, indexed };
  }
}

function remember<T>(map: Map<string, Pending<T>>, key: string, pending: Pending<T>): void {
  map.delete(key);
  map.set(key, pending);
  for (const [k, p] of map) {
    if (map.size <= MAX_PREPARED && pending.at - p.at <= PREPARED_TTL_MS) break;
    map.delete(k);
  }
}

/** The settled values of these keys' preparations (removed from `map`), without the failed ones. */
async function taken<T>(map: Map<string, Pending<T>>, keys: readonly string[]): Promise<Map<string, T>> {
  const now = Date.now();
  const found: [string, Pending<T>['value']][] = [];
  for (const key of keys) {
    const p = map.get(key);
    if (!p) continue;
    map.delete(key);
    if (now - p.at <= PREPARED_TTL_MS) found.push([key, p.value]);
  }
  const out = new Map<string, T>();
  for (const [key, value] of found) {
    const settled = await value;
    if (settled) out.set(key, settled.v);
  }
  return out;
}
