import type { Link } from '@permafrost/core';
import type { GraphWrites } from '@permafrost/core/store';
import type { MongoContext } from './mongo-context.js';
import { type EntityWrites, entityWrites, writeEntities } from './mongo-entities.js';
import type { AliasEntry } from './mongo-entity-aliases.js';
import { entityKey } from './mongo-graph-mapping.js';
import { type PreparedGraph, readGraphDocs } from './mongo-graph-prepared.js';
import type { EntityAliasDoc, EntityDoc, RelationDoc } from './mongo-memory-docs.js';
import type { MongoRelations } from './mongo-relations.js';
import { relationUpsertKeys } from './mongo-relations.js';

/**
 * The graph writes of new facts in a fixed number of round trips, whatever their number: every
 * document they touch is read at once (outside a transaction), then the alias index, then the
 * entities, then the relations beside the links (beside the entities when every entity they name
 * was stored already), each one guarded write that starts from that read (a document another
 * writer changed meanwhile costs a retry from a fresh read). What `prepared` holds for them (read
 * and indexed while the facts were inserted) is not read or indexed again: with everything
 * prepared, the writes start with the entities.
 */
export async function applyGraphWrites(
  ctx: MongoContext,
  relations: MongoRelations,
  addLinks: (links: readonly Link[]) => Promise<void>,
  writes: GraphWrites,
  prepared: PreparedGraph,
): Promise<void> {
  const entities = entityWrites(writes.entities);
  const relationKeys = relationUpsertKeys(writes.relations);
  const known = ctx.session() ? undefined : await knownDocs(ctx, prepared, entities, relationKeys);
  const relationDocs = known?.relations;
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
      known ? { byKey: entities.byKey, aliases: known.aliasesToIndex } : entities,
      known ? { aliases: known.aliases, entities: known.entities } : undefined,
    );
  // Relations and links go after the entities they name, unless every one of those was already
  // stored when read: then all go together (an entity named again costs no extra round trip).
  const entityDocs = known?.entities;
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

/** The documents the writes start from: what a preparation read or indexed, then one read of the rest. */
async function knownDocs(
  ctx: MongoContext,
  prepared: PreparedGraph,
  entities: EntityWrites,
  relationKeys: readonly string[],
): Promise<{
  readonly aliases: Map<string, EntityAliasDoc | null>;
  readonly aliasesToIndex: Map<string, AliasEntry>;
  readonly entities: Map<string, EntityDoc | null>;
  readonly relations: Map<string, RelationDoc | null>;
}> {
  const taken = await prepared.take([...entities.byKey.keys()], relationKeys, entities.aliases);
  const aliasesToIndex = new Map([...entities.aliases].filter(([key]) => !taken.indexed.has(key)));
  const [aliases, entityDocs, relationDocs] = await readGraphDocs(
    ctx,
    [...aliasesToIndex.keys()],
    [...entities.byKey.keys()].filter((k) => !taken.entities.has(k)),
    relationKeys.filter((k) => !taken.relations.has(k)),
  );
  return {
    aliases,
    aliasesToIndex,
    entities: new Map([...taken.entities, ...entityDocs]),
    relations: new Map([...taken.relations, ...relationDocs]),
  };
}
