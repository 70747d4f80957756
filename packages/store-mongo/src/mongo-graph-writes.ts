import type { Link } from '@permafrost/core';
import type { GraphWrites } from '@permafrost/core/store';
import type { Collection } from 'mongodb';
import type { MongoContext } from './mongo-context.js';
import { entityWrites, writeEntities } from './mongo-entities.js';
import { entityKey } from './mongo-graph-mapping.js';
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
 * entities, then the relations beside the links (beside the entities when every entity they name
 * was stored already), each one guarded write that starts from that read (a document another
 * writer changed meanwhile costs a retry from a fresh read).
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
  const edges = () =>
    ctx.all(
      () =>
        writes.relations.length > 0
          ? relations.upsertMany(writes.relations, relationDocs)
          : Promise.resolve(),
      () => (writes.links.length > 0 ? addLinks(writes.links) : Promise.resolve()),
    );
  const nodes = () =>
    writeEntities(
      ctx,
      entities,
      aliasDocs && entityDocs ? { aliases: aliasDocs, entities: entityDocs } : undefined,
    );
  // Relations and links go after the entities they name, unless every one of those was already
  // stored when read: then all go together (an entity named again costs no extra round trip).
  if (entityDocs && entityEnds(writes).every((key) => entityDocs.get(key))) await ctx.all(nodes, edges);
  else {
    await nodes();
    await edges();
  }
}

/** The entity documents the relations and links of `writes` name. */
function entityEnds(writes: GraphWrites): string[] {
  const keys = new Set<string>();
  for (const r of writes.relations)
    for (const end of [r.src, r.dst]) if (end.type === 'entity') keys.add(entityKey(r.guildId, end.id));
  for (const l of writes.links) if (l.nodeType === 'entity') keys.add(entityKey(l.guildId, l.nodeId));
  return [...keys];
}
