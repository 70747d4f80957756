import type { Entity } from '@permafrost/core';
import type { SqliteConnection } from './connection.js';
import { idList } from './rows/codec.js';
import { type EntityRow, entityFromRow } from './rows/graph-rows.js';

/**
 * Entities and their alias index (`entity_aliases`, kept beside the JSON alias list so alias
 * lookups use an index). Synchronous: callers provide run/write.
 */
export class EntityTable {
  readonly #c: SqliteConnection;

  constructor(connection: SqliteConnection) {
    this.#c = connection;
  }

  get(guildId: string, slug: string): Entity | null {
    const row = this.#c.stmt('SELECT * FROM entities WHERE guild_id = ? AND slug = ?').get(guildId, slug) as
      | EntityRow
      | undefined;
    return row ? entityFromRow(row) : null;
  }

  /** Writes an entity as given, replacing any stored one, with its alias index. */
  put(e: Entity): void {
    this.#c
      .stmt(
        `INSERT INTO entities (guild_id, slug, name, kind, aliases, fact_count, linked_user_id, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (guild_id, slug) DO UPDATE SET name = excluded.name, kind = excluded.kind,
             aliases = excluded.aliases, fact_count = excluded.fact_count, linked_user_id = excluded.linked_user_id,
             created_at = excluded.created_at, updated_at = excluded.updated_at`,
      )
      .run(
        e.guildId,
        e.slug,
        e.name,
        e.kind,
        JSON.stringify(e.aliases),
        e.factCount,
        e.linkedUserId,
        e.createdAt.getTime(),
        e.updatedAt.getTime(),
      );
    this.#c.stmt('DELETE FROM entity_aliases WHERE guild_id = ? AND slug = ?').run(e.guildId, e.slug);
    const alias = this.#c.stmt(
      'INSERT OR IGNORE INTO entity_aliases (guild_id, alias, slug, pos) VALUES (?, ?, ?, ?)',
    );
    for (const [i, a] of e.aliases.entries()) alias.run(e.guildId, a, e.slug, i);
  }

  /** Entities in request order, unknown slugs dropped. */
  bySlugs(guildId: string, slugs: readonly string[]): Entity[] {
    const rows = this.#c
      .stmt('SELECT * FROM entities WHERE guild_id = ? AND slug IN (SELECT value FROM json_each(?))')
      .all(guildId, idList(slugs)) as EntityRow[];
    const bySlug = new Map(rows.map((r) => [r.slug, r]));
    const out: Entity[] = [];
    for (const slug of slugs) {
      const r = bySlug.get(slug);
      if (r) out.push(entityFromRow(r));
    }
    return out;
  }

  /** (alias, slug) pairs for these normalized aliases, in entity creation then alias order. */
  byAliases(guildId: string, aliases: readonly string[]): { alias: string; slug: string }[] {
    return (
      this.#c
        .stmt(
          `SELECT ea.alias, ea.slug FROM entity_aliases ea
             JOIN entities e ON e.guild_id = ea.guild_id AND e.slug = ea.slug
             WHERE ea.guild_id = ? AND ea.alias IN (SELECT value FROM json_each(?)) ORDER BY e.rowid, ea.pos`,
        )
        .all(guildId, idList(aliases)) as { alias: string; slug: string }[]
    ).map((r) => ({ alias: r.alias, slug: r.slug }));
  }

  bumpFacts(guildId: string, slug: string, delta: number): void {
    this.#c
      .stmt('UPDATE entities SET fact_count = max(0, fact_count + ?) WHERE guild_id = ? AND slug = ?')
      .run(delta, guildId, slug);
  }

  linkUser(guildId: string, slug: string, userId: string | null): void {
    this.#c
      .stmt('UPDATE entities SET linked_user_id = ? WHERE guild_id = ? AND slug = ?')
      .run(userId, guildId, slug);
  }

  linkedTo(guildId: string, userIds: readonly string[]): Entity[] {
    return (
      this.#c
        .stmt(
          `SELECT * FROM entities WHERE guild_id = ? AND linked_user_id IN (SELECT value FROM json_each(?))
             ORDER BY rowid`,
        )
        .all(guildId, idList(userIds)) as EntityRow[]
    ).map(entityFromRow);
  }
}
