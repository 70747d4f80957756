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

/** FTS5's averages record (rowid 1 of the index's data table) starts with the row count. */
export function indexRowCount(c: SqliteConnection, index: KeywordIndex): number {
  const row = c.stmt(`SELECT block FROM ${index}_data WHERE id = 1`).get() as { block: unknown } | undefined;
  return row && row.block instanceof Uint8Array ? readVarint(row.block) : 0;
}

/** SQLite's varint: big-endian 7-bit groups, high bit set on all but the last (9th: 8 bits). */
export function readVarint(bytes: Uint8Array): number {
  let value = 0;
  for (let i = 0; i < 9 && i < bytes.length; i++) {
    const b = bytes[i] as number;
    if (i === 8) return value * 256 + b;
    value = value * 128 + (b & 0x7f);
    if ((b & 0x80) === 0) return value;
  }
  return value;
}
