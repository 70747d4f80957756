import { EntityKind } from '../model/enums.js';
import type { MemoryStore } from '../ports/memory-store.js';
import { decideAliases } from './resolution.js';

/**
 * Person-entity twins: every PERSON entity carrying `alias` is linked to the member the alias
 * names when exactly one member is named (no ambiguity), and unlinked when the name has become
 * ambiguous. An alias naming nobody changes nothing. Returns the entities changed.
 */
export async function reconcileTwins(
  store: MemoryStore,
  guildId: string,
  alias: string,
  isBot: (userId: string) => boolean,
): Promise<number> {
  const rows = await store.graph.findEntitiesByAlias(guildId, [alias]);
  if (rows.length === 0) return 0;
  const entities = (await store.graph.getEntities(guildId, [...new Set(rows.map((r) => r.slug))])).filter(
    (e) => e.kind === EntityKind.PERSON,
  );
  if (entities.length === 0) return 0;
  const matches = (await store.aliases.find(guildId, alias, 8)).filter((a) => !isBot(a.userId));
  const decision = decideAliases(alias, matches, 'exact');
  let changed = 0;
  for (const e of entities) {
    if (decision.resolved !== null && e.linkedUserId !== decision.resolved) {
      await store.graph.linkEntityToUser(guildId, e.slug, decision.resolved);
      changed++;
    } else if (decision.ambiguous && e.linkedUserId !== null) {
      await store.graph.linkEntityToUser(guildId, e.slug, null);
      changed++;
    }
  }
  return changed;
}
