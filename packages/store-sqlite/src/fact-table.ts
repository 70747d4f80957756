import type { Fact, FactHistoryEntry } from '@permafrost/core';
import { indexTerms } from '@permafrost/core/store';
import type { SqliteConnection } from './connection.js';
import { MERGE_EVERY_ROWS, MERGE_PAGES, mergeKeywordIndex } from './keyword-merge.js';
import { FACT_COLUMNS, type FactRow, factParams, historyParams } from './rows/fact-row.js';
import { ftsDocument } from './sql/fts-query.js';

const INSERT_FACT = `INSERT INTO facts (${FACT_COLUMNS.join(', ')}) VALUES (${FACT_COLUMNS.map((c) => `@${c}`).join(', ')})`;
const UPDATE_FACT = `UPDATE facts SET ${FACT_COLUMNS.filter((c) => c !== 'guild_id' && c !== 'id')
  .map((c) => `${c} = @${c}`)
  .join(', ')} WHERE guild_id = @guild_id AND id = @id`;

/**
 * Fact row writes that keep the contentless keyword index in step (its rows are removed on delete
 * by the `facts_fts_delete` trigger, its segments merged every MERGE_EVERY_ROWS rows written), and
 * history appends. Synchronous: callers provide run/write.
 */
export class FactTable {
  readonly #c: SqliteConnection;
  /** Keyword rows written since the fact index was last merged (see keyword-merge.ts). */
  #indexed = 0;

  constructor(connection: SqliteConnection) {
    this.#c = connection;
  }

  /** Inserts a fact and its keyword row; a taken (guild, id) throws the driver's unique violation. */
  insert(fact: Fact): void {
    const info = this.#c.stmt(INSERT_FACT).run(factParams(fact));
    this.#index(Number(info.lastInsertRowid), fact.text);
  }

  /** Inserts or overwrites a fact by (guild, id). */
  upsert(fact: Fact): void {
    const existing = this.#c
      .stmt('SELECT row_id, text FROM facts WHERE guild_id = ? AND id = ?')
      .get(fact.guildId, fact.id) as { row_id: number; text: string } | undefined;
    if (existing) this.#overwrite(existing, fact);
    else this.insert(fact);
  }

  /** The stored row of a fact, if any. */
  row(guildId: string, id: string): FactRow | undefined {
    return this.#c.stmt('SELECT * FROM facts WHERE guild_id = ? AND id = ?').get(guildId, id) as
      | FactRow
      | undefined;
  }

  /** Writes every mutable column of an existing row; re-indexes when the text changed. */
  overwrite(current: FactRow, next: Fact): void {
    this.#overwrite(current, next);
  }

  #overwrite(current: Pick<FactRow, 'row_id' | 'text'>, next: Fact): void {
    this.#c.stmt(UPDATE_FACT).run(factParams(next));
    if (current.text === next.text) return;
    this.#c.stmt('DELETE FROM facts_fts WHERE rowid = ?').run(current.row_id);
    this.#index(current.row_id, next.text);
  }

  #index(rowId: number, text: string): void {
    this.#c
      .stmt('INSERT INTO facts_fts (rowid, terms) VALUES (?, ?)')
      .run(rowId, ftsDocument(indexTerms(text)));
    // In the caller's transaction: the merge commits (or rolls back) with the rows that led to it.
    if (++this.#indexed < MERGE_EVERY_ROWS) return;
    this.#indexed = 0;
    mergeKeywordIndex(this.#c.db, MERGE_PAGES);
  }

  appendHistory(entries: readonly FactHistoryEntry[]): void {
    const insert = this.#c.stmt(
      `INSERT INTO fact_history (guild_id, fact_id, at, kind, detail, previous_text, actor_id, version)
         VALUES (@guild_id, @fact_id, @at, @kind, @detail, @previous_text, @actor_id, @version)`,
    );
    for (const e of entries) insert.run(historyParams(e));
  }
}
