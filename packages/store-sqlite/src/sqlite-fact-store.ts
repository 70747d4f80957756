import {
  ErrorCode,
  type Fact,
  type FactHistoryEntry,
  type FactPatch,
  MemoryError,
  type Page,
} from '@permafrost/core';
import type {
  FactFilter,
  FactPageOptions,
  ListFactsOptions,
  NormalizedTextKey,
  TextHit,
  UpdateFactOptions,
} from '@permafrost/core/store';
import { FactStoreBase } from '@permafrost/core/store';
import type { SqliteConnection } from './connection.js';
import { isUniqueViolation } from './errors.js';
import type { FactCache } from './fact-cache.js';
import type { FactTable } from './fact-table.js';
import { readKeptFacts } from './kept-fact-reads.js';
import { idList } from './rows/codec.js';
import {
  type FactRow,
  factFromRow,
  factFromValues,
  factSelectList,
  type HistoryRow,
  historyFromRow,
} from './rows/fact-row.js';
import { rawRows } from './rows/raw.js';
import { factFilterSql, ftsFilterSql, validitySql } from './sql/fact-filter.js';
import { ftsFullMatchScore } from './sql/fts-full-match.js';
import { ftsMatchExpression } from './sql/fts-query.js';

const FACT = factSelectList('f');

/** Fact rows, the contentless FTS5 keyword index beside them, and history. */
export class SqliteFactStore extends FactStoreBase {
  readonly #c: SqliteConnection;
  readonly #t: FactTable;
  readonly #cache: FactCache;

  constructor(connection: SqliteConnection, table: FactTable, cache: FactCache) {
    super();
    this.#c = connection;
    this.#t = table;
    this.#cache = cache;
  }

  override async insert(facts: readonly Fact[]): Promise<void> {
    await this.#c.write(() => {
      try {
        for (const f of facts) this.#t.insert(f);
      } catch (error) {
        if (isUniqueViolation(error))
          throw new MemoryError(ErrorCode.CONFLICT, 'a fact with this id already exists', { cause: error });
        throw error;
      }
    });
  }

  override get(guildId: string, ids: readonly string[]): Promise<Fact[]> {
    return this.#c.run(() => {
      if (ids.length === 0) return [];
      const byId = readKeptFacts(this.#c, this.#cache, guildId, ids, 'id');
      const out: Fact[] = [];
      for (const id of ids) {
        const f = byId.get(id);
        if (f) out.push(f);
      }
      return out;
    });
  }

  override update(
    guildId: string,
    id: string,
    patch: FactPatch,
    options: UpdateFactOptions,
  ): Promise<Fact | null> {
    return this.#c.write(() => {
      const row = this.#t.row(guildId, id);
      if (!row) return null;
      const current = factFromRow(row);
      if (options.expectedVersion !== undefined && current.version !== options.expectedVersion) return null;
      const next: Fact = { ...current, ...patch, version: current.version + 1, updatedAt: options.at };
      this.#t.overwrite(row, next);
      return next;
    });
  }

  override findByNormalizedText(
    guildId: string,
    subjectId: string | null,
    normalizedText: string,
  ): Promise<Fact | null> {
    return this.#c.run(() => this.#byNormalizedText(guildId, subjectId, normalizedText));
  }

  override findByNormalizedTexts(
    guildId: string,
    keys: readonly NormalizedTextKey[],
  ): Promise<(Fact | null)[]> {
    // One snapshot for every key.
    return this.#c.run(() =>
      this.#c.snapshot(() => keys.map((k) => this.#byNormalizedText(guildId, k.subjectId, k.normalizedText))),
    );
  }

  #byNormalizedText(guildId: string, subjectId: string | null, normalizedText: string): Fact | null {
    const row = this.#c
      .stmt(
        `SELECT * FROM facts WHERE guild_id = ? AND subject_id IS ? AND normalized_text = ?
           AND superseded_by_id IS NULL AND valid_until IS NULL ORDER BY row_id LIMIT 1`,
      )
      .get(guildId, subjectId, normalizedText) as FactRow | undefined;
    return row ? factFromRow(row) : null;
  }

  override list(options: ListFactsOptions): Promise<Page<Fact>> {
    return this.#c.run(() => {
      const order = options.order ?? 'oldest';
      if (order === 'random' && options.cursor !== undefined)
        throw new MemoryError(ErrorCode.SCHEMA_INVALID, 'random order cannot be paged with a cursor');
      const where = factFilterSql(options);
      const limit = Math.max(0, Math.floor(options.limit));
      if (order === 'random') {
        const stmt = this.#c.stmt(`SELECT ${FACT} FROM facts f WHERE ${where.sql} ORDER BY random() LIMIT ?`);
        return { items: rawRows(stmt, [...where.params, limit]).map(factFromValues), nextCursor: null };
      }
      const newest = order === 'newest';
      const params: (string | number)[] = [...where.params];
      let sql = `SELECT ${FACT} FROM facts f WHERE ${where.sql}`;
      if (options.cursor !== undefined) {
        sql += newest ? ' AND f.id < ?' : ' AND f.id > ?';
        params.push(options.cursor);
      }
      sql += ` ORDER BY f.id ${newest ? 'DESC' : 'ASC'} LIMIT ?`;
      const rows = rawRows(this.#c.stmt(sql), [...params, limit + 1]);
      const page = rows.slice(0, limit).map(factFromValues);
      const last = page[page.length - 1];
      return { items: page, nextCursor: rows.length > limit && last ? last.id : null };
    });
  }

  override topStrength(filter: FactFilter, limit: number): Promise<Fact[]> {
    return this.#c.run(() => {
      const only = filter.subjectIds?.length === 1 && !filter.includeServer && !filter.serverOnly;
      // One subject: walk the (guild, subject, strength) index in order and stop at the limit,
      // instead of collecting and sorting every fact of the subject.
      const where = only ? oneSubjectSql(filter) : factFilterSql(filter);
      const ranked = this.#c.stmt(
        `SELECT f.row_id FROM facts f WHERE ${where.sql}
           ORDER BY f.strength DESC, f.last_reinforced_at DESC, f.id ASC LIMIT ?`,
      );
      // Rank row ids, then read only the winning rows (one snapshot for both).
      return this.#c.snapshot(() => {
        const rowIds = rawRows(ranked, [...where.params, Math.max(0, Math.floor(limit))]).map(
          (r) => r[0] as number,
        );
        const byRow = this.#byRowIds(filter.guildId, rowIds);
        return rowIds.flatMap((id) => byRow.get(id) ?? []);
      });
    });
  }

  /**
   * Facts by row id (for ranked reads: sorting row ids costs far less than sorting whole rows).
   * Call inside the snapshot that ranked the row ids.
   */
  #byRowIds(guildId: string, rowIds: readonly number[]): ReadonlyMap<number, Fact> {
    return rowIds.length === 0 ? new Map() : readKeptFacts(this.#c, this.#cache, guildId, rowIds, 'row_id');
  }

  override searchText(filter: FactFilter, terms: readonly string[], limit: number): Promise<TextHit[]> {
    return this.#c.run(() => {
      const match = ftsMatchExpression(terms);
      if (match === null || limit <= 0) return [];
      const where = ftsFilterSql(filter, 'facts_fts');
      // Rank row ids only, then read the winning rows (one snapshot for both).
      const ranking = this.#c.stmt(
        `SELECT f.row_id, bm25(facts_fts) AS bm25 FROM facts_fts JOIN facts f ON f.row_id = facts_fts.rowid
           WHERE facts_fts MATCH ? AND ${where.sql} ORDER BY bm25 ASC, f.id ASC LIMIT ?`,
      );
      return this.#c.snapshot(() => {
        const ranked = rawRows(ranking, [match, ...where.params, Math.floor(limit)]) as [number, number][];
        const byRow = this.#byRowIds(
          filter.guildId,
          ranked.map((r) => r[0]),
        );
        const fullMatchScore = ranked.length > 0 ? ftsFullMatchScore(this.#c, 'facts_fts', terms) : 0;
        const hits: TextHit[] = [];
        for (const [rowId, bm25] of ranked) {
          const fact = byRow.get(rowId);
          if (fact) hits.push({ fact, score: -bm25, fullMatchScore });
        }
        return hits;
      });
    });
  }

  override touch(guildId: string, ids: readonly string[], at: Date): Promise<number> {
    return this.#c.run(
      () =>
        this.#c
          .stmt(
            'UPDATE facts SET last_reinforced_at = ? WHERE guild_id = ? AND id IN (SELECT value FROM json_each(?))',
          )
          .run(at.getTime(), guildId, idList(ids)).changes,
    );
  }

  override async appendHistory(entries: readonly FactHistoryEntry[]): Promise<void> {
    await this.#c.write(() => this.#t.appendHistory(entries));
  }

  override citing(guildId: string, messageIds: readonly string[]): Promise<Fact[]> {
    return this.#c.run(() => {
      if (messageIds.length === 0) return [];
      const stmt = this.#c.stmt(
        `SELECT ${FACT} FROM facts f WHERE f.guild_id = ? AND EXISTS (SELECT 1 FROM json_each(f.sources) s
           WHERE json_extract(s.value, '$.messageId') IN (SELECT value FROM json_each(?))) ORDER BY f.id`,
      );
      return rawRows(stmt, [guildId, idList(messageIds)]).map(factFromValues);
    });
  }

  override statedBy(guildId: string, speakerId: string, page: FactPageOptions): Promise<Fact[]> {
    return this.#page(guildId, 'f.speaker_id = ?', [speakerId], page);
  }

  override quoting(guildId: string, authorId: string, page: FactPageOptions): Promise<Fact[]> {
    return this.#page(
      guildId,
      "EXISTS (SELECT 1 FROM json_each(f.sources) s WHERE json_extract(s.value, '$.authorId') = ?)",
      [authorId],
      page,
    );
  }

  /** Facts of the guild matching `where` (over alias `f`), any validity, in id order, one page. */
  #page(guildId: string, where: string, params: readonly string[], page: FactPageOptions): Promise<Fact[]> {
    return this.#c.run(() => {
      const after = page.afterId === undefined ? '' : ' AND f.id > ?';
      const stmt = this.#c.stmt(
        `SELECT ${FACT} FROM facts f WHERE f.guild_id = ? AND ${where}${after} ORDER BY f.id LIMIT ?`,
      );
      const limit = Math.max(0, Math.floor(page.limit));
      const args = [guildId, ...params, ...(page.afterId === undefined ? [] : [page.afterId]), limit];
      return rawRows(stmt, args).map(factFromValues);
    });
  }

  override countHistory(guildId: string, factIds: readonly string[]): Promise<number> {
    return this.#c.run(
      () =>
        (
          this.#c
            .stmt(
              'SELECT count(*) AS n FROM fact_history WHERE guild_id = ? AND fact_id IN (SELECT value FROM json_each(?))',
            )
            .get(guildId, idList([...new Set(factIds)])) as { n: number }
        ).n,
    );
  }

  override history(guildId: string, factId: string): Promise<FactHistoryEntry[]> {
    return this.#c.run(() =>
      (
        this.#c
          .stmt('SELECT * FROM fact_history WHERE guild_id = ? AND fact_id = ? ORDER BY at, row_id')
          .all(guildId, factId) as HistoryRow[]
      ).map(historyFromRow),
    );
  }
}

/** Conditions for exactly one subject (no server facts) that the (guild, subject, strength) index serves. */
function oneSubjectSql(filter: FactFilter): { sql: string; params: (string | number)[] } {
  const validity = validitySql(filter.validity, 'f');
  return {
    sql: `f.guild_id = ? AND f.subject_id = ? AND ${validity.sql}`,
    params: [filter.guildId, filter.subjectIds?.[0] as string, ...validity.params],
  };
}
