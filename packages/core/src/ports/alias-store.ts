import type { Alias } from '../model/graph.js';

/** Names by which members are known, per guild. Aliases are stored normalized. */
export interface AliasStore {
  /**
   * Inserts or merges (guildId, alias, userId): the kept weight is the max of old and new; the
   * source follows the kept weight; updatedAt is refreshed.
   */
  upsert(alias: Alias): Promise<void>;
  /** Exact matches, highest weight first. */
  find(guildId: string, alias: string, limit: number): Promise<Alias[]>;
  /**
   * Exact matches of several aliases in one read: each alias with matches maps to the list `find`
   * would return for it (highest weight first, at most `limitPerAlias`); aliases without matches
   * are absent.
   */
  findMany(guildId: string, aliases: readonly string[], limitPerAlias: number): Promise<Map<string, Alias[]>>;
  /** Aliases starting with `prefix` (data, not a pattern), highest weight first. */
  findByPrefix(guildId: string, prefix: string, limit: number): Promise<Alias[]>;
  /** Every alias of a user, highest weight first. */
  aliasesOf(guildId: string, userId: string): Promise<Alias[]>;
}
