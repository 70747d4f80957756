import type { Link } from '@permafrost/core';
import type { GraphWrites } from '@permafrost/core/store';
import type { Collection } from 'mongodb';
import type { MongoContext } from './mongo-context.js';
import { entityWrites, writeEntities } from './mongo-entities.js';
import type { MongoRelations } from './mongo-relations.js';
import { relationUpsertKeys } from './mongo-relations.js';

/** Documents by `_id`, read now; null for each id that is not stored. */
async function readKnown<D extends { _id: string }>(
  ctx: MongoContext,
  coll: Collection<D>,
  ids: readonly string[],
): Promise<Map<string, D | null>> {
  const found = await ctx.readMany(coll, ids);
  return new Map(ids.map((id) => [id, found.get(id) ?? null]));
}

/**
 * The graph writes of new facts in a fixed number of round trips, whatever their number: every
 * document they touch is read at once (outside a transaction), then the alias index, then the
 * entities, then the relations beside the links, each one guarded write that starts from that
 * read (a document another writer changed meanwhile costs a retry from a fresh read).
 */
export async function applyGraphWrites(
  ctx: MongoContext,
  relations: MongoRelations,
  addLinks: (links: readonly Link[]) => Promise<void>,
  writes: GraphWrites,
): Promise<void> {
  const entities = entityWrites(writes.entities);
  const relationKeys = relationUpsertKeys(writes.relations);
  const prefetch = !ctx.session();
  const [aliasDocs, entityDocs, relationDocs] = prefetch
    ? await ctx.all(
        () => readKnown(ctx, ctx.c.entityAliases, [...entities.aliases.keys()]),
        () => readKnown(ctx, ctx.c.entities, [...entities.byKey.keys()]),
        () => readKnown(ctx, ctx.c.relations, relationKeys),
      )
    : [undefined, undefined, undefined];
  await writeEntities(
    ctx,
    entities,
    aliasDocs && entityDocs ? { aliases: aliasDocs, entities: entityDocs } : undefined,
  );
  await ctx.all(
    () =>
      writes.relations.length > 0 ? relations.upsertMany(writes.relations, relationDocs) : Promise.resolve(),
    () => (writes.links.length > 0 ? addLinks(writes.links) : Promise.resolve()),
  );
}
