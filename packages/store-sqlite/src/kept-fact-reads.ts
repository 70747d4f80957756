import type { Fact } from '@permafrost/core';
import type { SqliteConnection } from './connection.js';
import type { FactCache } from './fact-cache.js';
import { factFromValues, factSelectList } from './rows/fact-row.js';
import { rawRows } from './rows/raw.js';

const FACT = factSelectList('f');

/**
 * The guild's facts under these keys (fact ids or row ids): kept ones from the cache, the rest
 * read in one statement (after the cache read the guild's epoch) and offered to it.
 */
export function readKeptFacts<K extends string | number>(
  c: SqliteConnection,
  cache: FactCache,
  guildId: string,
  keys: readonly K[],
  by: 'id' | 'row_id',
): Map<K, Fact> {
  const kept = cache.guild(guildId);
  const keptBy = (by === 'id' ? kept.byId : kept.byRow) as ReadonlyMap<K, Fact>;
  const found = new Map<K, Fact>();
  const missing: K[] = [];
  for (const k of keys) {
    const f = keptBy.get(k);
    if (f) found.set(k, f);
    else missing.push(k);
  }
  if (missing.length > 0) {
    const read = c.stmt(
      `SELECT ${FACT} FROM facts f WHERE f.guild_id = ? AND f.${by} IN (SELECT value FROM json_each(?))`,
    );
    for (const values of rawRows(read, [guildId, JSON.stringify(missing)])) {
      const fact = factFromValues(values);
      const rowId = values[0] as number;
      found.set((by === 'id' ? fact.id : rowId) as K, fact);
      kept.add(rowId, fact);
    }
  }
  return found;
}
