import type { MongoContext } from './mongo-context.js';
import { docKey } from './mongo-keys.js';
import type { EntityDoc } from './mongo-memory-docs.js';

export const entityAliasKey = (guildId: string, alias: string): string => docKey(guildId, alias);

/**
 * The entity-alias lookup: one document per (guild, alias) listing the slugs that carry it, so
 * resolving words to entities is a handful of `_id` reads instead of a scan of every entity. It is
 * written before the entity it indexes (so an interruption leaves a superset, never a missing
 * entry), and readers confirm against the entity document.
 */
export async function indexEntityAliases(
  ctx: MongoContext,
  guildId: string,
  slug: string,
  aliases: readonly string[],
): Promise<void> {
  const keys = new Map([...new Set(aliases)].map((a) => [entityAliasKey(guildId, a), a]));
  await ctx.guard.mutateMany(ctx.c.entityAliases, [...keys.keys()], (doc, key) => {
    if (doc?.slugs.includes(slug)) return null;
    return {
      _id: key,
      ep: '',
      guildId,
      alias: keys.get(key) as string,
      slugs: [...(doc?.slugs ?? []), slug],
    };
  });
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
