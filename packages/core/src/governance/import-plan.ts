import type { GuildSnapshot, ImportCounts, OptOut } from '../model/admin.js';
import type { ImportPlan } from '../model/governance-plans.js';
import type { Relation, RelationRef } from '../model/graph.js';
import { relationKey, relationRefKey, relationRefOf } from '../model/graph.js';

/** What the target guild already holds that an import must reconcile with. */
export interface ImportBaseline {
  /** Stored relations (any validity) of the edges the snapshot's relations start from. */
  readonly relations: readonly Relation[];
  /** Members of the target guild who already opted out. */
  readonly optedOut: ReadonlySet<string>;
}

/**
 * Relations by natural key (edge and validFrom): an imported relation replaces the stored one
 * with its key; an imported active relation also replaces the stored active one of its edge, since
 * an edge has one active relation (and of two active ones for an edge in the export, the later wins).
 */
function planRelations(
  imported: readonly Relation[],
  stored: readonly Relation[],
): { readonly replace: RelationRef[]; readonly write: Relation[] } {
  const storedByKey = new Map(stored.map((r) => [relationRefKey(r), r]));
  const storedActive = new Map(stored.filter((r) => r.validUntil === null).map((r) => [relationKey(r), r]));
  const replace = new Map<string, RelationRef>();
  const write = new Map<string, Relation>();
  const plannedActive = new Map<string, string>();
  for (const r of imported) {
    const k = relationRefKey(r);
    const same = storedByKey.get(k);
    if (same) replace.set(k, relationRefOf(same));
    if (r.validUntil === null) {
      const edge = relationKey(r);
      const twin = storedActive.get(edge);
      if (twin) replace.set(relationRefKey(twin), relationRefOf(twin));
      const earlier = plannedActive.get(edge);
      if (earlier !== undefined && earlier !== k) write.delete(earlier);
      plannedActive.set(edge, k);
    }
    write.set(k, r);
  }
  return { replace: [...replace.values()], write: [...write.values()] };
}

/**
 * Opt-outs the import records: the export's, with their dates, for members not already opted out
 * in the target guild (consent recorded there keeps its own date). One per member, the earliest.
 */
function planOptOuts(imported: readonly OptOut[], optedOut: ReadonlySet<string>): OptOut[] {
  const byUser = new Map<string, OptOut>();
  for (const o of imported) {
    if (optedOut.has(o.userId)) continue;
    const seen = byUser.get(o.userId);
    if (!seen || o.at.getTime() < seen.at.getTime()) byUser.set(o.userId, o);
  }
  return [...byUser.values()];
}

/**
 * What importing `snapshot` into guild `guildId` writes: every row moved to the target guild,
 * relations matched by natural key, opt-outs with their exported dates. Pure.
 */
export function planImport(snapshot: GuildSnapshot, guildId: string, baseline: ImportBaseline): ImportPlan {
  const g = <T extends { readonly guildId: string }>(row: T): T => ({ ...row, guildId });
  const relations = planRelations(snapshot.relations.map(g), baseline.relations);
  return {
    guildId,
    facts: snapshot.facts.map(g),
    history: snapshot.history.map(g),
    links: snapshot.links.map(g),
    replaceRelations: relations.replace,
    relations: relations.write,
    entities: snapshot.entities.map(g),
    aliases: snapshot.aliases.map(g),
    digests: snapshot.digests.map(g),
    optOuts: planOptOuts(snapshot.optOuts, baseline.optedOut),
  };
}

/** Rows of each kind the snapshot holds (what an import reports). */
export function importCounts(snapshot: GuildSnapshot): ImportCounts {
  return {
    facts: snapshot.facts.length,
    relations: snapshot.relations.length,
    entities: snapshot.entities.length,
    aliases: snapshot.aliases.length,
    links: snapshot.links.length,
    history: snapshot.history.length,
    digests: snapshot.digests.length,
  };
}
