import type { Entity, EntityUpsert } from './graph.js';

/** The entity an upsert creates when the slug is new (every store writes this shape). */
export function newEntity(input: EntityUpsert): Entity {
  return {
    guildId: input.guildId,
    slug: input.slug,
    name: input.name,
    kind: input.kind,
    aliases: [...new Set(input.aliases)],
    factCount: 0,
    linkedUserId: null,
    createdAt: input.at,
    updatedAt: input.at,
  };
}

/**
 * What an upsert makes of a stored entity: the alias sets united (stored ones first, in order),
 * `updatedAt` refreshed. The name, kind, fact count and member link are kept: the first mention
 * named the entity, and the other fields have their own writers.
 */
export function mergeEntity(current: Entity, input: Pick<EntityUpsert, 'aliases' | 'at'>): Entity {
  return {
    ...current,
    aliases: [...new Set([...current.aliases, ...input.aliases])],
    updatedAt: input.at,
  };
}
