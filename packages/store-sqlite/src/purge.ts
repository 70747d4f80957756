import type { PurgePlan } from '@permafrost/core/store';
import type { SqliteConnection } from './connection.js';
import type { MessageTable } from './message-table.js';
import type { RelationTable } from './relation-table.js';
import { idList } from './rows/codec.js';
import { encodeSources } from './rows/fact-row.js';
import type { VecTable } from './vec-table.js';
import { truncateWal } from './wal-truncate.js';

/**
 * Writes core's purge plan in the caller's transaction: deletes and rewrites exactly the rows it
 * names. With `secure_delete` the freed pages are zeroed and the keyword indexes are merged
 * afterwards (FTS5's own secure-delete can leave a deleted term's bytes in a leaf); call
 * `checkpoint()` after the commit.
 */
export class PurgeWriter {
  readonly #c: SqliteConnection;
  readonly #messages: MessageTable;
  readonly #vec: VecTable;
  readonly #relations: RelationTable;

  constructor(connection: SqliteConnection, messages: MessageTable, vec: VecTable, relations: RelationTable) {
    this.#c = connection;
    this.#messages = messages;
    this.#vec = vec;
    this.#relations = relations;
  }

  apply(plan: PurgePlan): void {
    const c = this.#c;
    const g = plan.guildId;
    const facts = idList(plan.factIds);
    this.#vec.delete(g, 'fact', plan.factIds);
    c.stmt('DELETE FROM fact_history WHERE guild_id = ? AND fact_id IN (SELECT value FROM json_each(?))').run(
      g,
      facts,
    );
    const link = c.stmt(
      'DELETE FROM links WHERE guild_id = ? AND fact_id = ? AND node_type = ? AND node_id = ? AND kind = ?',
    );
    for (const l of plan.links) link.run(g, l.factId, l.nodeType, l.nodeId, l.kind);
    const factsGone = c
      .stmt('DELETE FROM facts WHERE guild_id = ? AND id IN (SELECT value FROM json_each(?))')
      .run(g, facts).changes;
    for (const r of plan.deleteRelations) this.#relations.remove(g, r);
    for (const t of plan.trimRelations) this.#relations.setEvidence(g, t.relation, t.evidenceFactIds);
    const setSources = c.stmt('UPDATE facts SET sources = ? WHERE guild_id = ? AND id = ?');
    for (const s of plan.stripSources) setSources.run(encodeSources(s.sources), g, s.factId);
    const alias = c.stmt('DELETE FROM aliases WHERE guild_id = ? AND alias = ? AND user_id = ?');
    for (const a of plan.aliases) alias.run(g, a.alias, a.userId);
    const digest = c.stmt('DELETE FROM digests WHERE guild_id = ? AND subject_id IS ?');
    for (const subject of plan.digestSubjects) digest.run(g, subject);
    const messagesGone = this.#messages.deleteWhere(
      'guild_id = ? AND message_id IN (SELECT value FROM json_each(?))',
      [g, idList(plan.messageIds)],
    );
    const unlink = c.stmt('UPDATE entities SET linked_user_id = NULL WHERE guild_id = ? AND slug = ?');
    for (const slug of plan.unlinkEntities) unlink.run(g, slug);
    const dropEntity = c.stmt('DELETE FROM entities WHERE guild_id = ? AND slug = ?');
    const dropEntityAliases = c.stmt('DELETE FROM entity_aliases WHERE guild_id = ? AND slug = ?');
    for (const slug of plan.deleteEntities) {
      dropEntity.run(g, slug);
      dropEntityAliases.run(g, slug);
    }
    const reaction = c.stmt(
      'DELETE FROM reactions WHERE guild_id = ? AND message_id = ? AND user_id = ? AND emoji = ?',
    );
    for (const r of plan.reactions) reaction.run(g, r.messageId, r.userId, r.emoji);
    // FTS5 secure-delete removes the rows' postings but may keep a deleted term's bytes in a
    // segment leaf; merging every segment rewrites the index without them.
    if (factsGone > 0) c.stmt("INSERT INTO facts_fts (facts_fts) VALUES ('optimize')").run();
    if (messagesGone > 0) c.stmt("INSERT INTO messages_fts (messages_fts) VALUES ('optimize')").run();
  }

  /** Copies the WAL into the main file and truncates it, so no purged bytes stay in the log. */
  checkpoint(): void {
    truncateWal(this.#c);
  }
}
