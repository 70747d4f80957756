import type { Entity, EntityUpsert } from './graph.js';

/** The entity an upsert creates when the slug is new (every store writes this shape). */
export function newEntity(input: EntityUpsert): Entity {
  return {
    guildId: input.guildId,
    slug: input.slug,
    name: input.name,
    kind: input.kind,
    aliases: [...new Set(input.aliases)],
    factCount: Math.max(0, input.factDelta ?? 0),
    linkedUserId: null,
    createdAt: input.at,
    updatedAt: input.at,
  };
}

/**
 * What an upsert makes of a stored entity: the alias sets united (stored ones first, in order),
 * the fact count moved by `factDelta` (never below 0), `updatedAt` refreshed. The name, kind and
 * member link are kept: the first mention named the entity, and the link has its own writer.
 */
export function mergeEntity(
  current: Entity,
  input: Pick<EntityUpsert, 'aliases' | 'at' | 'factDelta'>,
): Entity {
  return {
    ...current,
    aliases: [...new Set([...current.aliases, ...input.aliases])],
    factCount: Math.max(0, current.factCount + (input.factDelta ?? 0)),
    updatedAt: input.at,
  };
}

/** The entity after each upsert of `inputs` (all of one slug) in order, from `current` (null: none stored). */
export function foldEntityUpserts(current: Entity | null, inputs: readonly EntityUpsert[]): Entity | null {
  let entity = current;
  for (const input of inputs) entity = entity ? mergeEntity(entity, input) : newEntity(input);
  return entity;
}
