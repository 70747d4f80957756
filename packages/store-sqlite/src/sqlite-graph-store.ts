import type { Entity, Link, NodeRef, Relation } from '@permafrost/core';
import {
  type EntityUpsert,
  GraphStoreBase,
  type GraphWrites,
  type LinksForNodesOptions,
  mergeEntity,
  newEntity,
  newRelation,
  type RelationUpsert,
  reinforceRelation,
} from '@permafrost/core/store';
import type { SqliteConnection } from './connection.js';
import type { EntityTable } from './entity-table.js';
import { bumpFactEpoch, type FactCache } from './fact-cache.js';
import type { RelationTable } from './relation-table.js';
import { idList } from './rows/codec.js';
import {
  LINK_SELECT,
  type LinkRow,
  linkFromRow,
  linkFromValues,
  type RelationRow,
  relationFromRow,
} from './rows/graph-rows.js';
import { rawRows } from './rows/raw.js';
import { validitySql } from './sql/fact-filter.js';

/** Incidence links, typed relations and entities. */
export class SqliteGraphStore extends GraphStoreBase {
  readonly #c: SqliteConnection;
  readonly #entities: EntityTable;
  readonly #relations: RelationTable;
  readonly #cache: FactCache;

  constructor(
    connection: SqliteConnection,
    entities: EntityTable,
    relations: RelationTable,
    cache: FactCache,
  ) {
    super();
    this.#c = connection;
    this.#entities = entities;
    this.#relations = relations;
    this.#cache = cache;
  }

  override async addLinks(links: readonly Link[]): Promise<void> {
    await this.#c.write(() => this.#addLinks(links));
  }

  #addLinks(links: readonly Link[]): void {
    const insert = this.#c.stmt(
      `INSERT OR IGNORE INTO links (guild_id, fact_id, node_type, node_id, kind, created_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
    );
    const guilds = new Set<string>();
    for (const l of links) {
      if (insert.run(l.guildId, l.factId, l.nodeType, l.nodeId, l.kind, l.createdAt.getTime()).changes > 0)
        guilds.add(l.guildId);
    }
    for (const g of guilds) bumpFactEpoch(this.#c, g);
  }

  /** One write transaction: the entities, then the relations, then the links. */
  override async applyGraphWrites(writes: GraphWrites): Promise<void> {
    const { entities, relations, links } = writes;
    if (entities.length + relations.length + links.length === 0) return;
    await this.#c.write(() => {
      for (const entity of entities) this.#upsertEntity(entity);
      for (const relation of relations) this.#upsertRelation(relation);
      this.#addLinks(links);
    });
  }

  override linksForNodes(
    guildId: string,
    nodes: readonly NodeRef[],
    options: LinksForNodesOptions,
  ): Promise<Link[]> {
    return this.#c.run(() => {
      const validity = validitySql(options.validity, 'f');
      const stmt = this.#c.stmt(
        `SELECT ${LINK_SELECT} FROM links l JOIN facts f ON f.guild_id = l.guild_id AND f.id = l.fact_id
           WHERE l.guild_id = ? AND l.node_type = ? AND l.node_id = ? AND ${validity.sql}
           ORDER BY l.fact_id DESC, l.rowid ASC LIMIT ?`,
      );
      const limit = Math.max(0, Math.floor(options.limitPerNode));
      // Links as of a point in time are not kept: only the current and the whole graph are.
      const keep = typeof options.validity !== 'object';
      const kept = keep ? this.#cache.guild(guildId) : null;
      const out: Link[] = [];
      for (const n of nodes) {
        const key = `${n.type}\u0000${n.id}\u0000${options.validity ?? 'active'}\u0000${limit}`;
        let links = kept?.links.get(key);
        if (!links) {
          links = rawRows(stmt, [guildId, n.type, n.id, ...validity.params, limit]).map((v) =>
            linkFromValues(v, guildId, n),
          );
          kept?.addLinks(key, links);
        }
        out.push(...links);
      }
      return out;
    });
  }

  override linksForFacts(guildId: string, factIds: readonly string[]): Promise<Link[]> {
    return this.#c.run(() =>
      (
        this.#c
          .stmt(
            'SELECT * FROM links WHERE guild_id = ? AND fact_id IN (SELECT value FROM json_each(?)) ORDER BY rowid',
          )
          .all(guildId, idList(factIds)) as LinkRow[]
      ).map(linkFromRow),
    );
  }

  override upsertRelation(input: RelationUpsert): Promise<Relation> {
    return this.#c.write(() => this.#upsertRelation(input));
  }

  /** Merges into the active edge or starts one (inside a write). */
  #upsertRelation(input: RelationUpsert): Relation {
    const existing = this.#relations.active(input.guildId, input.src, input.dst, input.verb);
    if (existing) {
      const next = reinforceRelation(
        {
          occurrences: existing.occurrences,
          confidence: existing.confidence,
          evidenceFactIds: JSON.parse(existing.evidence) as string[],
        },
        input,
      );
      const evidence = JSON.stringify(next.evidenceFactIds);
      const at = next.updatedAt.getTime();
      this.#c
        .stmt(
          `UPDATE relations SET occurrences = ?, confidence = ?, evidence = ?, weight = ?, updated_at = ?
             WHERE row_id = ?`,
        )
        .run(next.occurrences, next.confidence, evidence, next.weight, at, existing.row_id);
      return relationFromRow({
        ...existing,
        occurrences: next.occurrences,
        confidence: next.confidence,
        evidence,
        weight: next.weight,
        updated_at: at,
      });
    }
    const created = newRelation(input);
    this.#relations.insert(created);
    return created;
  }

  override relationsOf(
    guildId: string,
    nodes: readonly NodeRef[],
    limitPerNode: number,
  ): Promise<Relation[]> {
    return this.#c.run(() => {
      const limit = Math.max(0, Math.floor(limitPerNode));
      if (nodes.length === 0 || limit === 0) return [];
      // One statement for every node: each node's heaviest `limit` active relations (as source or
      // target, a self-loop once), nodes in the order given; a relation already listed for an
      // earlier node is skipped below.
      const stmt = this.#c.stmt(
        `WITH n(pos, type, id) AS (
           SELECT key, json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?)),
         hit AS (
           SELECT n.pos AS pos, r.* FROM n JOIN relations r
             ON r.guild_id = ? AND r.src_type = n.type AND r.src_id = n.id AND r.valid_until IS NULL
           UNION
           SELECT n.pos AS pos, r.* FROM n JOIN relations r
             ON r.guild_id = ? AND r.dst_type = n.type AND r.dst_id = n.id AND r.valid_until IS NULL),
         ranked AS (
           SELECT hit.*, row_number() OVER (
             PARTITION BY pos ORDER BY weight DESC, updated_at DESC, row_id ASC) AS rank_in_node
           FROM hit)
         SELECT * FROM ranked WHERE rank_in_node <= ?
         ORDER BY pos, weight DESC, updated_at DESC, row_id ASC`,
      );
      const list = JSON.stringify(nodes.map((n) => [n.type, n.id]));
      const seen = new Set<number>();
      const out: Relation[] = [];
      for (const r of stmt.all(list, guildId, guildId, limit) as RelationRow[]) {
        if (seen.has(r.row_id)) continue;
        seen.add(r.row_id);
        out.push(relationFromRow(r));
      }
      return out;
    });
  }

  override relationsTouching(guildId: string, nodes: readonly NodeRef[]): Promise<Relation[]> {
    return this.#c.run(() => {
      const stmt = this.#c.stmt(
        `SELECT * FROM relations WHERE guild_id = ? AND src_type = ? AND src_id = ?
         UNION SELECT * FROM relations WHERE guild_id = ? AND dst_type = ? AND dst_id = ?`,
      );
      const byRow = new Map<number, RelationRow>();
      for (const n of nodes)
        for (const r of stmt.all(guildId, n.type, n.id, guildId, n.type, n.id) as RelationRow[])
          byRow.set(r.row_id, r);
      return [...byRow.values()].sort((a, b) => a.row_id - b.row_id).map(relationFromRow);
    });
  }

  override relationsCiting(guildId: string, factIds: readonly string[]): Promise<Relation[]> {
    return this.#c.run(() =>
      (
        this.#c
          .stmt(
            `SELECT * FROM relations r WHERE guild_id = ? AND EXISTS (SELECT 1 FROM json_each(r.evidence) e
               WHERE e.value IN (SELECT value FROM json_each(?))) ORDER BY row_id`,
          )
          .all(guildId, idList(factIds)) as RelationRow[]
      ).map(relationFromRow),
    );
  }

  override dropEvidence(guildId: string, factIds: readonly string[], at: Date): Promise<number> {
    return this.#c.write(() => {
      const drop = new Set(factIds);
      const rows = this.#c
        .stmt(
          `SELECT * FROM relations r WHERE guild_id = ? AND valid_until IS NULL AND EXISTS (
             SELECT 1 FROM json_each(r.evidence) e WHERE e.value IN (SELECT value FROM json_each(?)))`,
        )
        .all(guildId, idList(factIds)) as RelationRow[];
      const weaken = this.#c.stmt(
        'UPDATE relations SET evidence = ?, weight = ?, updated_at = ? WHERE row_id = ?',
      );
      const end = this.#c.stmt(
        "UPDATE relations SET evidence = '[]', valid_until = ?, updated_at = ? WHERE row_id = ?",
      );
      for (const r of rows) {
        const evidence = (JSON.parse(r.evidence) as string[]).filter((id) => !drop.has(id));
        if (evidence.length > 0)
          weaken.run(
            JSON.stringify(evidence),
            Math.round(r.weight * 0.8 * 1e6) / 1e6,
            at.getTime(),
            r.row_id,
          );
        else end.run(at.getTime(), at.getTime(), r.row_id);
      }
      return rows.length;
    });
  }

  override upsertEntity(input: EntityUpsert): Promise<Entity> {
    return this.#c.write(() => this.#upsertEntity(input));
  }

  #upsertEntity(input: EntityUpsert): Entity {
    const current = this.#entities.get(input.guildId, input.slug);
    const next = current ? mergeEntity(current, input) : newEntity(input);
    this.#entities.put(next);
    return next;
  }

  override getEntities(guildId: string, slugs: readonly string[]): Promise<Entity[]> {
    return this.#c.run(() => this.#entities.bySlugs(guildId, slugs));
  }

  override findEntitiesByAlias(
    guildId: string,
    aliases: readonly string[],
  ): Promise<{ alias: string; slug: string }[]> {
    return this.#c.run(() => this.#entities.byAliases(guildId, aliases));
  }

  override async bumpEntityFacts(guildId: string, slug: string, delta: number): Promise<void> {
    await this.#c.run(() => this.#entities.bumpFacts(guildId, slug, delta));
  }

  override async linkEntityToUser(guildId: string, slug: string, userId: string | null): Promise<void> {
    await this.#c.run(() => this.#entities.linkUser(guildId, slug, userId));
  }

  override entitiesLinkedTo(guildId: string, userIds: readonly string[]): Promise<Entity[]> {
    return this.#c.run(() => this.#entities.linkedTo(guildId, userIds));
  }
}
