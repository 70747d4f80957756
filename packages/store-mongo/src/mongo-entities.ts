import type { Entity } from '@permafrost/core';
import { type EntityUpsert, foldEntityUpserts } from '@permafrost/core/store';
import type { MongoContext } from './mongo-context.js';
import { type AliasEntry, aliasWrites, indexEntityAliases } from './mongo-entity-aliases.js';
import { entityKey, fromEntityDoc, toEntityDoc } from './mongo-graph-mapping.js';
import { finite, requireId, requireString, validDate } from './mongo-keys.js';
import type { EntityAliasDoc, EntityDoc } from './mongo-memory-docs.js';

/** An entity upsert with its fields checked (and nothing else carried over). */
function checked(input: EntityUpsert): EntityUpsert {
  return {
    guildId: requireId(input.guildId, 'guildId'),
    slug: requireId(input.slug, 'slug'),
    name: requireString(input.name, 'name'),
    kind: requireString(input.kind, 'kind') as EntityUpsert['kind'],
    aliases: input.aliases.map((a) => requireString(a, 'aliases')),
    at: validDate(input.at, 'at'),
    ...(input.factDelta === undefined ? {} : { factDelta: finite(input.factDelta, 'factDelta') }),
  };
}

/** Entity upserts grouped by document: what to write, and which documents it touches. */
export interface EntityWrites {
  /** Upserts per entity document key, in order. */
  readonly byKey: ReadonlyMap<string, readonly EntityUpsert[]>;
  /** The alias index entries to add, per alias document key. */
  readonly aliases: ReadonlyMap<string, AliasEntry>;
}

export function entityWrites(inputs: readonly EntityUpsert[]): EntityWrites {
  const upserts = inputs.map(checked);
  const byKey = new Map<string, EntityUpsert[]>();
  for (const u of upserts) {
    const key = entityKey(u.guildId, u.slug);
    byKey.set(key, [...(byKey.get(key) ?? []), u]);
  }
  return { byKey, aliases: aliasWrites(upserts) };
}

/**
 * Entity upserts, whatever their number, in two guarded writes: the alias index of them all first
 * (the lookup is written before the entities it indexes), then every entity, the upserts naming
 * one entity folded into one write. `known`: documents read moments ago. The stored entities by key.
 */
export async function writeEntities(
  ctx: MongoContext,
  writes: EntityWrites,
  known?: {
    readonly aliases: ReadonlyMap<string, EntityAliasDoc | null>;
    readonly entities: ReadonlyMap<string, EntityDoc | null>;
  },
): Promise<Map<string, Entity>> {
  const stored = new Map<string, Entity>();
  if (writes.byKey.size === 0) return stored;
  await indexEntityAliases(ctx, writes.aliases, known?.aliases);
  const outcomes = await ctx.guard.mutateMany(
    ctx.c.entities,
    [...writes.byKey.keys()],
    (current, key) => {
      const next = foldEntityUpserts(current ? fromEntityDoc(current) : null, writes.byKey.get(key) ?? []);
      if (!next) return null;
      return current ? { ...toEntityDoc(next), ep: current.ep } : toEntityDoc(next);
    },
    known ? { known: known.entities, knownIsFresh: true } : {},
  );
  for (const [key, outcome] of outcomes)
    if (outcome.after) stored.set(key, fromEntityDoc(outcome.after as EntityDoc));
  return stored;
}
