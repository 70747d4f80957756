import type { SqliteConnection } from '../connection.js';
import { VEC_TABLES } from '../vec-layout.js';

/** A guild's active message vectors, packed: row `i` is `vectors[i * dims …]`, keyed by `rowIds[i]`. */
export interface GuildRows {
  readonly dims: number;
  readonly rowIds: Float64Array;
  readonly itemIds: string[];
  readonly vectors: Float32Array;
}

const COUNT = `SELECT count(*) FROM ${VEC_TABLES.message} WHERE guild_id = ? AND active = 1`;
const ROWS = `SELECT i.row_id, i.item_id, v.embedding FROM ${VEC_TABLES.message} v
  CROSS JOIN vector_ids i ON i.row_id = v.item_id WHERE v.guild_id = ? AND v.active = 1`;

/**
 * The guild's active message vectors of `dims` floats, read in one snapshot (on the store's
 * connection, or on the read thread's, whose answer moves to the store's thread without a copy).
 */
export function readGuildRows(c: SqliteConnection, guildId: string, dims: number): GuildRows {
  return c.snapshot(() => {
    const expected = c.stmt(COUNT).pluck(true).get(guildId) as number;
    const rowIds = new Float64Array(expected);
    const itemIds: string[] = [];
    const vectors = new Float32Array(expected * dims);
    const bytes = new Uint8Array(vectors.buffer);
    let n = 0;
    for (const [rowId, itemId, embedding] of c.stmt(ROWS).raw(true).iterate(guildId) as IterableIterator<
      [number, string, Buffer]
    >) {
      if (n === expected || embedding.byteLength !== dims * 4) continue;
      rowIds[n] = rowId;
      itemIds.push(itemId);
      bytes.set(embedding, n * dims * 4);
      n++;
    }
    return { dims, rowIds: rowIds.subarray(0, n), itemIds, vectors: vectors.subarray(0, n * dims) };
  });
}
