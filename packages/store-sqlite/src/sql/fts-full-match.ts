import { bm25FullMatchScore } from '@permafrost/core/store';
import type { SqliteConnection } from '../connection.js';
import { ftsTerms } from './fts-query.js';

/** The keyword indexes, each with its vocabulary view (migration 9). */
const VOCABULARY = { facts_fts: 'facts_fts_vocab', messages_fts: 'messages_fts_vocab' } as const;
export type KeywordIndex = keyof typeof VOCABULARY;

/**
 * The full-match score of a query on a keyword index (core's `bm25FullMatchScore` over the terms
 * bm25() scores, `ftsTerms`), with N the row count bm25() itself uses (the index's averages
 * record) and each term's row count from the index's vocabulary view. Run inside the search's
 * snapshot.
 */
export function ftsFullMatchScore(
  c: SqliteConnection,
  index: KeywordIndex,
  terms: readonly string[],
): number {
  const docs = c.stmt(`SELECT doc FROM ${VOCABULARY[index]} WHERE term = ?`);
  return bm25FullMatchScore(
    indexRowCount(c, index),
    ftsTerms(terms),
    (term) => (docs.get(term) as { doc: number } | undefined)?.doc ?? 0,
  );
}

/** An index's totals from FTS5's averages record (rowid 1 of its data table): rows, then tokens. */
export interface IndexTotals {
  readonly rows: number;
  /** Tokens of every row (the index has one column). */
  readonly tokens: number;
}

/** The totals bm25() itself uses (`IndexTotals`); zeros for an index that never held a row. */
export function indexTotals(c: SqliteConnection, index: KeywordIndex): IndexTotals {
  const row = c.stmt(`SELECT block FROM ${index}_data WHERE id = 1`).get() as { block: unknown } | undefined;
  if (!row || !(row.block instanceof Uint8Array)) return { rows: 0, tokens: 0 };
  const [rows = 0, tokens = 0] = readVarints(row.block, 2);
  return { rows, tokens };
}

/** FTS5's row count (the averages record's first figure). */
export const indexRowCount = (c: SqliteConnection, index: KeywordIndex): number => indexTotals(c, index).rows;

/** SQLite's varint: big-endian 7-bit groups, high bit set on all but the last (9th: 8 bits). */
export const readVarint = (bytes: Uint8Array): number => readVarints(bytes, 1)[0] ?? 0;

/** Up to `count` SQLite varints from the start of `bytes`. */
export function readVarints(bytes: Uint8Array, count: number): number[] {
  const out: number[] = [];
  let i = 0;
  while (out.length < count && i < bytes.length) {
    let value = 0;
    for (let k = 0; k < 9 && i < bytes.length; k++) {
      const b = bytes[i++] as number;
      if (k === 8) {
        value = value * 256 + b;
        break;
      }
      value = value * 128 + (b & 0x7f);
      if ((b & 0x80) === 0) break;
    }
    out.push(value);
  }
  return out;
}
