import { normalizeAlias } from '../identity/aliases.js';
import type { Entity } from '../model/graph.js';
import type { GraphStore } from '../ports/graph-store.js';

/**
 * Finds an entity by slug, else by alias. Several entities sharing the alias resolve to the one
 * with the most facts (then the smallest slug), so the answer is stable.
 */
export async function findEntity(
  graph: GraphStore,
  guildId: string,
  nameOrSlug: string,
): Promise<Entity | null> {
  const raw = nameOrSlug.trim();
  if (raw.length === 0) return null;
  const [bySlug] = await graph.getEntities(guildId, [raw]);
  if (bySlug) return bySlug;
  const alias = normalizeAlias(raw);
  const rows = await graph.findEntitiesByAlias(guildId, [alias]);
  if (rows.length === 0) {
    const [bySlugNormalized] = alias === raw ? [] : await graph.getEntities(guildId, [alias]);
    return bySlugNormalized ?? null;
  }
  const entities = await graph.getEntities(guildId, [...new Set(rows.map((r) => r.slug))]);
  entities.sort((a, b) => b.factCount - a.factCount || (a.slug < b.slug ? -1 : 1));
  return entities[0] ?? null;
}
