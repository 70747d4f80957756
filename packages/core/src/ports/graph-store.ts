import type {
  Entity,
  EntityUpsert,
  GraphWrites,
  Link,
  NodeRef,
  Relation,
  RelationUpsert,
} from '../model/graph.js';
import type { FactValidity } from './fact-store.js';

export type { EntityUpsert, GraphWrites, RelationUpsert };

export interface LinksForNodesOptions {
  readonly validity?: FactValidity;
  /** At most this many links per node, newest facts first. */
  readonly limitPerNode: number;
}

/**
 * The fact graph: incidence links (fact ↔ user/entity nodes), typed relations between nodes, and
 * entities with their aliases.
 */
export interface GraphStore {
  /** Adds links; an existing (factId, nodeType, nodeId, kind) is left unchanged. */
  addLinks(links: readonly Link[]): Promise<void>;
  /** Links to these nodes whose fact passes `validity` (default active), newest facts first per node. */
  linksForNodes(guildId: string, nodes: readonly NodeRef[], options: LinksForNodesOptions): Promise<Link[]>;
  /** Every link of these facts (whatever their validity). */
  linksForFacts(guildId: string, factIds: readonly string[]): Promise<Link[]>;
  /**
   * Inserts or merges an active relation (src, dst, verb). Merge: occurrences + 1, confidence = max,
   * evidence appended (deduplicated, last 8 kept), weight = relationBaseWeight(occurrences, confidence),
   * updatedAt = at. New: occurrences 1, validFrom = at. Returns the stored relation.
   */
  upsertRelation(input: RelationUpsert): Promise<Relation>;
  /**
   * The graph writes of new facts as one call: the entities first, each upsert in order (an
   * entity named several times ends as if its upserts had run one after another), then the
   * relations (the same edge twice merges twice) and the links. A remote store sends them in a
   * fixed number of round trips, whatever their number.
   */
  applyGraphWrites(writes: GraphWrites): Promise<void>;
  /**
   * Graph writes that will probably follow, before it is known which of them will (new facts
   * whose duplicate check is still running): a superset of the next `applyGraphWrites` calls.
   * Core calls it only where transactions are `ordered`, beside the facts' insert. A remote store
   * may read the documents they touch now and write the lookups that readers confirm against the
   * data (an index entry naming an entity that does not exist yet is ignored), so that the writes
   * themselves take fewer round trips. Readers see no change: no entity, relation or link is
   * written here. A failure is not the caller's: `applyGraphWrites` does the work again.
   * Default: nothing.
   */
  prepareGraphWrites(writes: GraphWrites): Promise<void>;
  /** Active relations touching any of the nodes (either direction), heaviest first, per node limit. */
  relationsOf(guildId: string, nodes: readonly NodeRef[], limitPerNode: number): Promise<Relation[]>;
  /** Every relation, active or ended, with one of these nodes as its source or destination (each once). */
  relationsTouching(guildId: string, nodes: readonly NodeRef[]): Promise<Relation[]>;
  /** Every relation, active or ended, whose evidence names one of these facts (each once). */
  relationsCiting(guildId: string, factIds: readonly string[]): Promise<Relation[]>;
  /**
   * Removes these fact ids from relation evidence. A relation left with evidence has its weight × 0.8;
   * one left with none ends (validUntil = at). Returns relations changed.
   */
  dropEvidence(guildId: string, factIds: readonly string[], at: Date): Promise<number>;
  /**
   * Creates the entity (`newEntity(input)`) or replaces the stored one with
   * `mergeEntity(current, input)` (both from core). Returns the stored entity.
   */
  upsertEntity(input: EntityUpsert): Promise<Entity>;

  getEntities(guildId: string, slugs: readonly string[]): Promise<Entity[]>;
  /** Slugs whose alias set contains one of these normalized aliases. */
  findEntitiesByAlias(
    guildId: string,
    aliases: readonly string[],
  ): Promise<{ alias: string; slug: string }[]>;
  bumpEntityFacts(guildId: string, slug: string, delta: number): Promise<void>;
  /** Marks an entity as being this member (null unlinks). */
  linkEntityToUser(guildId: string, slug: string, userId: string | null): Promise<void>;
  /** Entities linked to any of these users. */
  entitiesLinkedTo(guildId: string, userIds: readonly string[]): Promise<Entity[]>;
}
