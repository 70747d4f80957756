import type { PurgeReport } from '@permafrost/core';
import type { SqliteConnection } from './connection.js';
import type { MessageTable } from './message-table.js';
import { idList } from './rows/codec.js';
import type { RelationRow } from './rows/graph-rows.js';
import type { VecTable } from './vec-table.js';
import { truncateWal } from './wal-truncate.js';

type Counts = Omit<PurgeReport, 'guildId' | 'userId' | 'dryRun' | 'optOutKept' | 'budgetRows'>;

/**
 * Counts (dry run) or removes every trace of a user in a guild, in the caller's transaction. With
 * `secure_delete` the freed pages are zeroed and keyword indexes are merged afterwards (FTS5's own
 * secure-delete can leave a deleted term's bytes in a leaf); call `checkpoint()` after the commit.
 */
export class UserPurge {
  readonly #c: SqliteConnection;
  readonly #messages: MessageTable;
  readonly #vec: VecTable;

  constructor(connection: SqliteConnection, messages: MessageTable, vec: VecTable) {
    this.#c = connection;
    this.#messages = messages;
    this.#vec = vec;
  }

  run(guildId: string, userId: string, dryRun: boolean): PurgeReport {
    const c = this.#c;
    const owned = (
      c
        .stmt('SELECT id FROM facts WHERE guild_id = ? AND (subject_id = ? OR speaker_id = ?) ORDER BY id')
        .all(guildId, userId, userId) as { id: string }[]
    ).map((r) => r.id);
    const ownedList = idList(owned);
    const ownedSet = new Set(owned);
    const count = (sql: string, ...params: (string | number)[]) =>
      (c.stmt(`SELECT count(*) AS n FROM ${sql}`).get(...params) as { n: number }).n;

    const messageIds = (
      c.stmt('SELECT message_id FROM messages WHERE guild_id = ? AND author_id = ?').all(guildId, userId) as {
        message_id: string;
      }[]
    ).map((r) => r.message_id);
    const relations = c
      .stmt(
        `SELECT * FROM relations r WHERE guild_id = ? AND ((src_type = 'user' AND src_id = ?)
           OR (dst_type = 'user' AND dst_id = ?) OR EXISTS (SELECT 1 FROM json_each(r.evidence) e
             WHERE e.value IN (SELECT value FROM json_each(?))))`,
      )
      .all(guildId, userId, userId, ownedList) as RelationRow[];
    const doomedRelations: number[] = [];
    const trimmedRelations: { rowId: number; evidence: string[] }[] = [];
    for (const r of relations) {
      const evidence = JSON.parse(r.evidence) as string[];
      const remaining = evidence.filter((id) => !ownedSet.has(id));
      const touches =
        (r.src_type === 'user' && r.src_id === userId) || (r.dst_type === 'user' && r.dst_id === userId);
      if (touches || (evidence.length > 0 && remaining.length === 0)) doomedRelations.push(r.row_id);
      else if (remaining.length !== evidence.length)
        trimmedRelations.push({ rowId: r.row_id, evidence: remaining });
    }
    // Entities only the purged facts or relations point at would keep the member's words: remove them.
    const candidateSlugs = new Set<string>(
      (
        c
          .stmt(
            `SELECT DISTINCT node_id FROM links WHERE guild_id = ? AND node_type = 'entity'
               AND fact_id IN (SELECT value FROM json_each(?))`,
          )
          .all(guildId, ownedList) as { node_id: string }[]
      ).map((r) => r.node_id),
    );
    const doomedSet = new Set(doomedRelations);
    for (const r of relations) {
      if (!doomedSet.has(r.row_id)) continue;
      if (r.src_type === 'entity') candidateSlugs.add(r.src_id);
      if (r.dst_type === 'entity') candidateSlugs.add(r.dst_id);
    }
    const stillLinked = c.stmt(
      `SELECT 1 FROM links WHERE guild_id = ? AND node_type = 'entity' AND node_id = ?
         AND fact_id NOT IN (SELECT value FROM json_each(?)) LIMIT 1`,
    );
    const stillRelated = c.stmt(
      `SELECT row_id FROM relations WHERE guild_id = ? AND ((src_type = 'entity' AND src_id = ?) OR (dst_type = 'entity' AND dst_id = ?))`,
    );
    const orphanEntities = [...candidateSlugs].filter(
      (slug) =>
        stillLinked.get(guildId, slug, ownedList) === undefined &&
        (stillRelated.all(guildId, slug, slug) as { row_id: number }[]).every((r) =>
          doomedSet.has(r.row_id),
        ) &&
        count('entities WHERE guild_id = ? AND slug = ?', guildId, slug) > 0,
    );
    const quoted = c
      .stmt(
        `SELECT row_id, sources FROM facts f WHERE guild_id = ? AND id NOT IN (SELECT value FROM json_each(?))
           AND EXISTS (SELECT 1 FROM json_each(f.sources) s WHERE json_extract(s.value, '$.authorId') = ?)`,
      )
      .all(guildId, ownedList, userId) as { row_id: number; sources: string }[];
    let sourcesStripped = 0;
    const stripped = quoted.map((f) => {
      const sources = JSON.parse(f.sources) as { authorId: string }[];
      const kept = sources.filter((s) => s.authorId !== userId);
      sourcesStripped += sources.length - kept.length;
      return { rowId: f.row_id, sources: JSON.stringify(kept) };
    });

    // Profile digests of other subjects (or the server) summarise facts the user stated about them,
    // so they may quote the user: they are dropped too and regenerate from what remains.
    const quotedSubjects = c
      .stmt(
        `SELECT DISTINCT subject_id FROM facts WHERE guild_id = ? AND speaker_id = ?
           AND (subject_id IS NULL OR subject_id <> ?)`,
      )
      .all(guildId, userId, userId) as { subject_id: string | null }[];
    const quotedServer = quotedSubjects.some((r) => r.subject_id === null);
    const quotedList = idList(quotedSubjects.flatMap((r) => (r.subject_id === null ? [] : [r.subject_id])));

    const counts: Counts = {
      facts: owned.length,
      vectors:
        this.#vec.countExisting(guildId, 'fact', owned) +
        this.#vec.countExisting(guildId, 'message', messageIds),
      history: count(
        'fact_history WHERE guild_id = ? AND fact_id IN (SELECT value FROM json_each(?))',
        guildId,
        ownedList,
      ),
      links: count(
        `links WHERE guild_id = ? AND (fact_id IN (SELECT value FROM json_each(?))
           OR (node_type = 'user' AND node_id = ?))`,
        guildId,
        ownedList,
        userId,
      ),
      relations: doomedRelations.length,
      aliases: count('aliases WHERE guild_id = ? AND user_id = ?', guildId, userId),
      digests: count(
        `digests WHERE guild_id = ? AND (subject_id = ? OR subject_id IS NULL AND ? OR subject_id IN (SELECT value FROM json_each(?)))`,
        guildId,
        userId,
        quotedServer ? 1 : 0,
        quotedList,
      ),
      messages: messageIds.length,
      sourcesStripped,
      entitiesUnlinked: count('entities WHERE guild_id = ? AND linked_user_id = ?', guildId, userId),
      entities: orphanEntities.length,
    };
    const optOutKept = count('opt_outs WHERE guild_id = ? AND user_id = ?', guildId, userId) > 0;
    const report: PurgeReport = { guildId, userId, dryRun, ...counts, budgetRows: 0, optOutKept };
    if (dryRun) return report;

    this.#vec.delete(guildId, 'fact', owned);
    c.stmt('DELETE FROM fact_history WHERE guild_id = ? AND fact_id IN (SELECT value FROM json_each(?))').run(
      guildId,
      ownedList,
    );
    c.stmt(
      `DELETE FROM links WHERE guild_id = ? AND (fact_id IN (SELECT value FROM json_each(?))
         OR (node_type = 'user' AND node_id = ?))`,
    ).run(guildId, ownedList, userId);
    c.stmt('DELETE FROM facts WHERE guild_id = ? AND id IN (SELECT value FROM json_each(?))').run(
      guildId,
      ownedList,
    );
    const dropRelation = c.stmt('DELETE FROM relations WHERE row_id = ?');
    for (const rowId of doomedRelations) dropRelation.run(rowId);
    const trimRelation = c.stmt('UPDATE relations SET evidence = ? WHERE row_id = ?');
    for (const r of trimmedRelations) trimRelation.run(JSON.stringify(r.evidence), r.rowId);
    c.stmt('DELETE FROM aliases WHERE guild_id = ? AND user_id = ?').run(guildId, userId);
    c.stmt(
      `DELETE FROM digests WHERE guild_id = ? AND (subject_id = ? OR subject_id IS NULL AND ?
         OR subject_id IN (SELECT value FROM json_each(?)))`,
    ).run(guildId, userId, quotedServer ? 1 : 0, quotedList);
    this.#messages.deleteWhere('guild_id = ? AND author_id = ?', [guildId, userId]);
    const setSources = c.stmt('UPDATE facts SET sources = ? WHERE row_id = ?');
    for (const f of stripped) setSources.run(f.sources, f.rowId);
    c.stmt('UPDATE entities SET linked_user_id = NULL WHERE guild_id = ? AND linked_user_id = ?').run(
      guildId,
      userId,
    );
    const dropEntity = c.stmt('DELETE FROM entities WHERE guild_id = ? AND slug = ?');
    const dropEntityAliases = c.stmt('DELETE FROM entity_aliases WHERE guild_id = ? AND slug = ?');
    for (const slug of orphanEntities) {
      dropEntity.run(guildId, slug);
      dropEntityAliases.run(guildId, slug);
    }
    // FTS5 secure-delete removes the rows' postings but may keep a deleted term's bytes in a
    // segment leaf; merging every segment rewrites the index without them.
    if (counts.facts > 0) c.stmt("INSERT INTO facts_fts (facts_fts) VALUES ('optimize')").run();
    if (counts.messages > 0) c.stmt("INSERT INTO messages_fts (messages_fts) VALUES ('optimize')").run();
    return report;
  }

  /** Copies the WAL into the main file and truncates it, so no purged bytes stay in the log. */
  checkpoint(): void {
    truncateWal(this.#c);
  }
}
