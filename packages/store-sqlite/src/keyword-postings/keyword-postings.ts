import { indexTerms } from '@permafrost/core/store';
import type { SqliteConnection } from '../connection.js';
import { type IndexTotals, indexTotals, readVarint } from '../sql/fts-full-match.js';
import { ftsTerms } from '../sql/fts-query.js';
import { topSlots } from '../vector-scan/top-slots.js';
import { bm25Contribution } from './fts5-bm25.js';
import { TermPostings } from './term-postings.js';

/** Rows read per query of a build, and the time after which the build lets requests through. */
const BUILD_STEP_ROWS = 256;
const BUILD_STEP_MS = 4;
/** Rows a search reads into the copy at most; further behind, the copy is built again in steps. */
const MAX_CATCH_UP_ROWS = 10_000;
/** Index sizes (tokens, every guild of the file) past which no copy is kept: about 8 bytes a token. */
export const MAX_KEPT_TOKENS = 40_000_000;
/** Terms the in-memory ranking takes: plain ASCII letters and digits, one FTS5 token each. */
const PLAIN_TERM = /^[a-z0-9]+$/;

/** The change counter and the highest row of the index, read in one snapshot. */
interface Position {
  readonly rewrites: number;
  readonly lastRow: number;
}

const POSITION = `SELECT (SELECT rewrites FROM messages_fts_state WHERE id = 1) AS rewrites,
  (SELECT coalesce(max(id), 0) FROM messages_fts_docsize) AS lastRow`;
/** Index rows after a row id, with their length, the text they were tokenised from and their guild. */
const ROWS_AFTER = `SELECT d.id, d.sz, m.content, m.guild_id FROM messages_fts_docsize d JOIN messages m ON m.row_id = d.id
  WHERE d.id > ? AND d.id <= ? ORDER BY d.id LIMIT ?`;

/** An index row read into the copy: rowid, FTS5's size record, the message text, its guild. */
type IndexRow = [number, Uint8Array, string, string];

/**
 * A ranking of the index: its best `depth` rows as [rowid, bm25()], best first; with `guildId`,
 * the best `depth` rows of that guild's messages.
 */
export type IndexRanking = (depth: number, guildId?: string) => [number, number][];

/**
 * The message keyword index (`messages_fts`) held in memory as postings, so that a query is ranked
 * without FTS5 evaluating bm25() row by row: the same rows in the same order, each score equal to
 * FTS5's to rounding (the index's own row and token totals, the same lengths and term counts,
 * bm25()'s formula in its order of operations), in a fraction of the time. Kept by the read thread
 * for big indexes; nothing else writes it.
 *
 * Rows reach the index only above every row it holds (migration 13), so the copy follows it by
 * reading the rows added since; any other change (a message deleted or edited) moves
 * `messages_fts_state.rewrites`, and the copy is built again. Each row's terms come from its
 * message with the analyzer the store indexed it with; a row whose term count differs from the
 * count FTS5 holds for it (a token the two split differently) leaves the copy unused. So does any
 * query term that is not plain ASCII (FTS5 ranks those).
 */
export class KeywordPostings {
  readonly #terms = new Map<string, TermPostings>();
  #rowIds = new Int32Array(1024);
  #lengths = new Uint32Array(1024);
  /** Per row, its guild's number in `#guilds`. */
  #guildOf = new Int32Array(1024);
  readonly #guilds = new Map<string, number>();
  #rows = 0;
  #tokens = 0;
  /** Per-row scores of the query being ranked (zero between queries). */
  #scores = new Float64Array(0);
  #at: Position | null = null;
  #building: Promise<void> | null = null;
  #unusable = false;
  /** Moved by `drop()`: a build that sees it move starts over. */
  #generation = 0;

  /** Whether a copy is in memory (it may still be behind the index). */
  get built(): boolean {
    return this.#at !== null;
  }

  /** Rows and postings held (for tests and sizing). */
  get size(): { rows: number; tokens: number; terms: number } {
    return { rows: this.#rows, tokens: this.#tokens, terms: this.#terms.size };
  }

  /**
   * Builds the copy in steps (each its own snapshot), then brings it up to date; a rewrite during
   * the build starts it over (at most twice). Resolves when done or given up; never rejects.
   */
  build(c: SqliteConnection, yieldStep: () => Promise<void>, stepMs = BUILD_STEP_MS): Promise<void> {
    if (this.#unusable) return Promise.resolve();
    this.#building ??= (async () => {
      try {
        for (let attempt = 0; attempt < 3 && !this.#unusable; attempt++) {
          this.#clear();
          const generation = this.#generation;
          const start = c.snapshot(() => c.stmt(POSITION).get() as Position);
          let after = 0;
          let stepStart = performance.now();
          for (;;) {
            const added = c.snapshot(() => this.#append(c, after, start.lastRow));
            if (added === null) break;
            after = added;
            if (performance.now() - stepStart >= stepMs) {
              await yieldStep();
              stepStart = performance.now();
              if (this.#generation !== generation) break;
            }
          }
          if (this.#unusable) return;
          const now = c.snapshot(() => c.stmt(POSITION).get() as Position);
          if (now.rewrites === start.rewrites && this.#generation === generation) {
            for (const postings of this.#terms.values()) postings.fit();
            this.#at = { rewrites: start.rewrites, lastRow: after };
            return;
          }
        }
      } catch {
        this.#unusable = true;
      } finally {
        this.#building = null;
      }
    })();
    return this.#building;
  }

  /**
   * Lets go of every posting now (the store's own thread deleted or edited messages): nothing of
   * their terms stays in memory until the next search builds the copy again.
   */
  drop(): void {
    this.#generation++;
    this.#clear();
  }

  /**
   * Inside the search's snapshot: a ranking of `terms` equal to FTS5's over the index as this
   * snapshot holds it, or null when the copy cannot give one (not built, rewritten since, a term
   * it does not model). Rows added since the copy was made are read into it first.
   */
  ranking(c: SqliteConnection, terms: readonly string[]): IndexRanking | null {
    const at = this.#at;
    if (at === null || this.#unusable) return null;
    const phrases = ftsTerms(terms);
    if (phrases.length === 0 || !phrases.every((t) => PLAIN_TERM.test(t))) return null;
    const now = c.stmt(POSITION).get() as Position;
    if (now.rewrites !== at.rewrites) {
      this.#at = null;
      return null;
    }
    if (now.lastRow - at.lastRow > MAX_CATCH_UP_ROWS) {
      // Many rows at once (an import): built again in steps rather than inside this search.
      this.#at = null;
      return null;
    }
    if (now.lastRow > at.lastRow) {
      let after = at.lastRow;
      for (
        let added = this.#append(c, after, now.lastRow);
        added !== null;
        added = this.#append(c, after, now.lastRow)
      )
        after = added;
      if (this.#unusable) return null;
      this.#at = { rewrites: at.rewrites, lastRow: after };
    }
    // bm25() takes the row and token totals from the index's own record, which a delete from a
    // contentless index does not always lower: so does the copy.
    const stats = indexTotals(c, 'messages_fts');
    if (stats.rows <= 0) return null;
    return (depth, guildId) => this.#rank(phrases, stats, depth, guildId);
  }

  #rank(phrases: readonly string[], stats: IndexTotals, depth: number, guildId?: string): [number, number][] {
    if (this.#scores.length < this.#rows) this.#scores = new Float64Array(this.#rowIds.length);
    const scores = this.#scores;
    const touched: number[] = [];
    const avgdl = stats.tokens / stats.rows;
    // Phrase by phrase, as bm25() sums them: every row's score adds up in the same order.
    for (const phrase of phrases) {
      const postings = this.#terms.get(phrase);
      if (!postings) continue;
      postings.addScores(scores, touched, this.#lengths, stats.rows, avgdl, bm25Contribution);
    }
    const guild = guildId === undefined ? undefined : (this.#guilds.get(guildId) ?? -1);
    const candidates =
      guild === undefined ? touched : touched.filter((slot) => this.#guildOf[slot] === guild);
    const best = topSlots(scores, Math.max(0, Math.floor(depth)), candidates).map(
      (slot): [number, number] => [this.#rowIds[slot] as number, -1.0 * (scores[slot] as number)],
    );
    // The scratch scores start from zero for the next query.
    for (const slot of touched) scores[slot] = 0;
    return best;
  }

  /**
   * Reads index rows after `after` (up to `last`, one step's worth) into the copy; returns the
   * last row read, or null when there were none.
   */
  #append(c: SqliteConnection, after: number, last: number): number | null {
    const rows = c.stmt(ROWS_AFTER).raw(true).all(after, last, BUILD_STEP_ROWS) as IndexRow[];
    if (rows.length === 0) return null;
    for (const [rowId, size, content, guildId] of rows) {
      const terms = indexTerms(content);
      if (terms.length !== readVarint(size) || this.#tokens + terms.length > MAX_KEPT_TOKENS) {
        this.#unusable = true;
        this.#clear();
        return null;
      }
      this.#add(rowId, terms, guildId);
    }
    return (rows[rows.length - 1] as IndexRow)[0];
  }

  #add(rowId: number, terms: readonly string[], guildId: string): void {
    const slot = this.#rows++;
    if (slot === this.#rowIds.length) {
      const ids = new Int32Array(slot * 2);
      ids.set(this.#rowIds);
      this.#rowIds = ids;
      const lengths = new Uint32Array(slot * 2);
      lengths.set(this.#lengths);
      this.#lengths = lengths;
      const guilds = new Int32Array(slot * 2);
      guilds.set(this.#guildOf);
      this.#guildOf = guilds;
    }
    this.#rowIds[slot] = rowId;
    this.#lengths[slot] = terms.length;
    let guild = this.#guilds.get(guildId);
    if (guild === undefined) {
      guild = this.#guilds.size;
      this.#guilds.set(guildId, guild);
    }
    this.#guildOf[slot] = guild;
    this.#tokens += terms.length;
    const counts = new Map<string, number>();
    for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
    for (const [term, count] of counts) {
      let postings = this.#terms.get(term);
      if (!postings) {
        postings = new TermPostings();
        this.#terms.set(term, postings);
      }
      postings.push(slot, count);
    }
  }

  #clear(): void {
    this.#terms.clear();
    this.#rowIds = new Int32Array(1024);
    this.#lengths = new Uint32Array(1024);
    this.#guildOf = new Int32Array(1024);
    this.#guilds.clear();
    this.#rows = 0;
    this.#tokens = 0;
    this.#at = null;
  }
}
