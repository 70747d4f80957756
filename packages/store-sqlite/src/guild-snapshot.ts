import type { Digest, GuildSnapshot } from '@permafrost/core';
import type { ImportPlan } from '@permafrost/core/store';
import type { SqliteConnection } from './connection.js';
import type { EntityTable } from './entity-table.js';
import { bumpFactEpoch } from './fact-cache.js';
import type { FactTable } from './fact-table.js';
import type { RelationTable } from './relation-table.js';
import { type FactRow, factFromRow, type HistoryRow, historyFromRow } from './rows/fact-row.js';
import {
  type DigestRow,
  digestFromRow,
  type EntityRow,
  entityFromRow,
  type LinkRow,
  linkFromRow,
  type RelationRow,
  relationFromRow,
} from './rows/graph-rows.js';
import { aliasFromRow } from './sqlite-alias-store.js';

/** Rows decoded just now: their arrays are fresh, so handing them out as mutable is safe. */
type Fresh = GuildSnapshot;

/** Whole-guild export, and the writing of core's import plans. Synchronous: callers provide the context. */
export class GuildSnapshots {
  readonly #c: SqliteConnection;
  readonly #facts: FactTable;
  readonly #relations: RelationTable;
  readonly #entities: EntityTable;

  constructor(
    connection: SqliteConnection,
    facts: FactTable,
    relations: RelationTable,
    entities: EntityTable,
  ) {
    this.#c = connection;
    this.#facts = facts;
    this.#relations = relations;
    this.#entities = entities;
  }

  export(guildId: string): GuildSnapshot {
    const all = <T>(sql: string) => this.#c.stmt(sql).all(guildId) as T[];
    return {
      guildId,
      facts: all<FactRow>('SELECT * FROM facts WHERE guild_id = ? ORDER BY id').map(
        factFromRow,
      ) as Fresh['facts'],
      history: all<HistoryRow>(
        `SELECT h.* FROM fact_history h JOIN facts f ON f.guild_id = h.guild_id AND f.id = h.fact_id
           WHERE h.guild_id = ? ORDER BY f.id, h.row_id`,
      ).map(historyFromRow),
      links: all<LinkRow>('SELECT * FROM links WHERE guild_id = ? ORDER BY rowid').map(linkFromRow),
      relations: all<RelationRow>('SELECT * FROM relations WHERE guild_id = ? ORDER BY row_id').map(
        relationFromRow,
      ) as Fresh['relations'],
      entities: all<EntityRow>('SELECT * FROM entities WHERE guild_id = ? ORDER BY rowid').map(
        entityFromRow,
      ) as Fresh['entities'],
      aliases: all<Parameters<typeof aliasFromRow>[0]>(
        'SELECT * FROM aliases WHERE guild_id = ? ORDER BY rowid',
      ).map(aliasFromRow),
      digests: all<DigestRow>('SELECT * FROM digests WHERE guild_id = ? ORDER BY row_id').map(digestFromRow),
      optOuts: all<{ user_id: string; at: number }>(
        'SELECT user_id, at FROM opt_outs WHERE guild_id = ? ORDER BY user_id',
      ).map((r) => ({ userId: r.user_id, at: new Date(r.at) })),
    };
  }

  /** Writes an import plan: every row as given, replacing what it names. */
  apply(plan: ImportPlan): void {
    const g = plan.guildId;
    const c = this.#c;
    for (const f of plan.facts) this.#facts.upsert(f);
    const byFact = new Map<string, (typeof plan.history)[number][]>();
    for (const h of plan.history) byFact.set(h.factId, [...(byFact.get(h.factId) ?? []), h]);
    const clearHistory = c.stmt('DELETE FROM fact_history WHERE guild_id = ? AND fact_id = ?');
    for (const [factId, entries] of byFact) {
      clearHistory.run(g, factId);
      this.#facts.appendHistory(entries);
    }
    const link = c.stmt(
      `INSERT INTO links (guild_id, fact_id, node_type, node_id, kind, created_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (guild_id, fact_id, node_type, node_id, kind) DO UPDATE SET created_at = excluded.created_at`,
    );
    for (const l of plan.links) link.run(g, l.factId, l.nodeType, l.nodeId, l.kind, l.createdAt.getTime());
    if (plan.links.length > 0) bumpFactEpoch(c, g);
    for (const r of plan.replaceRelations) this.#relations.remove(g, r);
    for (const r of plan.relations) this.#relations.insert(r);
    for (const e of plan.entities) this.#entities.put(e);
    const alias = c.stmt(
      `INSERT INTO aliases (guild_id, alias, user_id, source, weight, updated_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (guild_id, alias, user_id) DO UPDATE SET source = excluded.source, weight = excluded.weight,
           updated_at = excluded.updated_at`,
    );
    for (const a of plan.aliases) alias.run(g, a.alias, a.userId, a.source, a.weight, a.updatedAt.getTime());
    for (const d of plan.digests) this.putDigest(d);
    const optOut = c.stmt('INSERT OR REPLACE INTO opt_outs (guild_id, user_id, at) VALUES (?, ?, ?)');
    for (const o of plan.optOuts) optOut.run(g, o.userId, o.at.getTime());
  }

  /** One digest per (guild, subject): replaces the stored one. */
  putDigest(d: Digest): void {
    this.#c.stmt('DELETE FROM digests WHERE guild_id = ? AND subject_id IS ?').run(d.guildId, d.subjectId);
    this.#c
      .stmt(
        'INSERT INTO digests (guild_id, subject_id, text, generated_at, source_fact_count, channels) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(
        d.guildId,
        d.subjectId,
        d.text,
        d.generatedAt.getTime(),
        d.sourceFactCount,
        d.channels === null ? null : JSON.stringify(d.channels),
      );
  }
}
