import type { MongoContext } from './mongo-context.js';
import { docKey } from './mongo-keys.js';
import type { EntityAliasDoc, EntityDoc } from './mongo-memory-docs.js';

export const entityAliasKey = (guildId: string, alias: string): string => docKey(guildId, alias);

/**
 * The entity-alias lookup: one document per (guild, alias) listing the slugs that carry it, so
 * resolving words to entities is a handful of `_id` reads instead of a scan of every entity. It is
 * written before the entity it indexes (so an interruption leaves a superset, never a missing
 * entry), and readers confirm against the entity document. `known`: the alias documents as read
 * within this operation (null: absent).
 */
export async function indexEntityAliases(
  ctx: MongoContext,
  entries: ReadonlyMap<string, AliasEntry>,
  known?: ReadonlyMap<string, EntityAliasDoc | null>,
): Promise<void> {
  await ctx.guard.mutateMany(
    ctx.c.entityAliases,
    [...entries.keys()],
    (doc, key) => {
      const { guildId, alias, slugs } = entries.get(key) as AliasEntry;
      const stored = doc?.slugs ?? [];
      const added = slugs.filter((s) => !stored.includes(s));
      if (added.length === 0) return null;
      return { _id: key, ep: '', guildId, alias, slugs: [...stored, ...added] };
    },
    known ? { known, knownIsFresh: true } : {},
  );
}

/** An alias document's alias and the slugs to add to it, in the order they were named. */
export interface AliasEntry {
  readonly guildId: string;
  readonly alias: string;
  readonly slugs: readonly string[];
}

/** The alias index entries of these entities, per alias document key. */
export function aliasWrites(
  entities: readonly {
    readonly guildId: string;
    readonly slug: string;
    readonly aliases: readonly string[];
  }[],
): Map<string, AliasEntry> {
  const keys = new Map<string, { guildId: string; alias: string; slugs: string[] }>();
  for (const e of entities)
    for (const alias of new Set(e.aliases)) {
      const key = entityAliasKey(e.guildId, alias);
      const entry = keys.get(key) ?? { guildId: e.guildId, alias, slugs: [] };
      if (!entry.slugs.includes(e.slug)) entry.slugs.push(e.slug);
      keys.set(key, entry);
    }
  return keys;
}

/** `{alias, slug}` for every entity of the guild carrying one of the aliases, oldest entity first. */
export async function entitiesByAlias(
  ctx: MongoContext,
  guildId: string,
  aliases: readonly string[],
): Promise<{ alias: string; slug: string }[]> {
  const wanted = new Set(aliases);
  const lookups = await ctx.readMany(
    ctx.c.entityAliases,
    [...wanted].map((a) => entityAliasKey(guildId, a)),
  );
  const slugs = new Set([...lookups.values()].flatMap((d) => d.slugs));
  const entities = await ctx.readMany(
    ctx.c.entities,
    [...slugs].map((s) => docKey(guildId, s)),
  );
  return [...entities.values()]
    .sort(
      (a: EntityDoc, b: EntityDoc) =>
        a.createdAt.getTime() - b.createdAt.getTime() || (a.slug < b.slug ? -1 : 1),
    )
    .flatMap((e) => e.aliases.filter((a) => wanted.has(a)).map((alias) => ({ alias, slug: e.slug })));
}
