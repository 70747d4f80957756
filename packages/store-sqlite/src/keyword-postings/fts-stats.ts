import type { SqliteConnection } from '../connection.js';

/** The figures of FTS5's averages record that bm25() uses: rows, and tokens over every row. */
export interface IndexStats {
  readonly rows: number;
  readonly tokens: number;
}

/** SQLite varints (big-endian 7-bit groups, high bit set on all but the last; a 9th byte holds 8 bits). */
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

/** The message index's averages record (rowid 1 of its data table): row count, then tokens (one column). */
export function readIndexStats(c: SqliteConnection): IndexStats {
  const row = c.stmt('SELECT block FROM messages_fts_data WHERE id = 1').get() as
    | { block: unknown }
    | undefined;
  if (!row || !(row.block instanceof Uint8Array)) return { rows: 0, tokens: 0 };
  const [rows = 0, tokens = 0] = readVarints(row.block, 2);
  return { rows, tokens };
}

const K1 = 1.2;
const B = 0.75;

/** FTS5's idf of a phrase found in `hits` of `rows` rows (never below 1e-6, as bm25() has it). */
export function bm25Idf(rows: number, hits: number): number {
  const idf = Math.log((rows - hits + 0.5) / (hits + 0.5));
  return idf <= 0.0 ? 1e-6 : idf;
}

/** One phrase's part of a row's bm25() score, in bm25()'s order of operations. */
export function bm25Contribution(idf: number, frequency: number, length: number, avgdl: number): number {
  return idf * ((frequency * (K1 + 1.0)) / (frequency + K1 * (1 - B + (B * length) / avgdl)));
}
