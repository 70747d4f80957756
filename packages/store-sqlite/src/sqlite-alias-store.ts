import type { Alias } from '@permafrost/core';
import { AliasStoreBase } from '@permafrost/core/store';
import type { SqliteConnection } from './connection.js';
import { date, idList } from './rows/codec.js';

interface AliasRow {
  readonly guild_id: string;
  readonly alias: string;
  readonly user_id: string;
  readonly source: Alias['source'];
  readonly weight: number;
  readonly updated_at: number;
}

export const aliasFromRow = (r: AliasRow): Alias => ({
  guildId: r.guild_id,
  alias: r.alias,
  userId: r.user_id,
  source: r.source,
  weight: r.weight,
  updatedAt: date(r.updated_at),
});

/** The largest code point: every string starting with a prefix sorts below prefix + this. */
const MAX_CHAR = '\u{10FFFF}';
const ORDER = 'ORDER BY weight DESC, user_id ASC, rowid ASC';

/** Member aliases per guild; the max weight wins on upsert. */
export class SqliteAliasStore extends AliasStoreBase {
  readonly #c: SqliteConnection;

  constructor(connection: SqliteConnection) {
    super();
    this.#c = connection;
  }

  /** Upsert keeping the heavier (weight, source). */
  override async upsert(alias: Alias): Promise<void> {
    await this.#c.run(() =>
      this.#c
        .stmt(
          `INSERT INTO aliases (guild_id, alias, user_id, source, weight, updated_at) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (guild_id, alias, user_id) DO UPDATE SET
             source = CASE WHEN aliases.weight > excluded.weight THEN aliases.source ELSE excluded.source END,
             weight = max(aliases.weight, excluded.weight),
             updated_at = excluded.updated_at`,
        )
        .run(alias.guildId, alias.alias, alias.userId, alias.source, alias.weight, alias.updatedAt.getTime()),
    );
  }

  override find(guildId: string, alias: string, limit: number): Promise<Alias[]> {
    return this.#c.run(() =>
      (
        this.#c
          .stmt(`SELECT * FROM aliases WHERE guild_id = ? AND alias = ? ${ORDER} LIMIT ?`)
          .all(guildId, alias, Math.max(0, Math.floor(limit))) as AliasRow[]
      ).map(aliasFromRow),
    );
  }

  override findMany(
    guildId: string,
    aliases: readonly string[],
    limitPerAlias: number,
  ): Promise<Map<string, Alias[]>> {
    return this.#c.run(() => {
      const out = new Map<string, Alias[]>();
      const limit = Math.max(0, Math.floor(limitPerAlias));
      if (aliases.length === 0 || limit === 0) return out;
      const rows = this.#c
        .stmt(
          `SELECT * FROM aliases WHERE guild_id = ? AND alias IN (SELECT value FROM json_each(?))
             ORDER BY alias, weight DESC, user_id ASC, rowid ASC`,
        )
        .all(guildId, idList(aliases)) as AliasRow[];
      for (const r of rows) {
        const list = out.get(r.alias);
        if (!list) out.set(r.alias, [aliasFromRow(r)]);
        else if (list.length < limit) list.push(aliasFromRow(r));
      }
      return out;
    });
  }

  override findByPrefix(guildId: string, prefix: string, limit: number): Promise<Alias[]> {
    return this.#c.run(() =>
      (
        this.#c
          .stmt(
            `SELECT * FROM aliases WHERE guild_id = ? AND alias >= ? AND alias < ?
               AND substr(alias, 1, length(?)) = ? ${ORDER} LIMIT ?`,
          )
          .all(
            guildId,
            prefix,
            prefix + MAX_CHAR,
            prefix,
            prefix,
            Math.max(0, Math.floor(limit)),
          ) as AliasRow[]
      ).map(aliasFromRow),
    );
  }

  override aliasesOf(guildId: string, userId: string): Promise<Alias[]> {
    return this.#c.run(() =>
      (
        this.#c
          .stmt(`SELECT * FROM aliases WHERE guild_id = ? AND user_id = ? ${ORDER}`)
          .all(guildId, userId) as AliasRow[]
      ).map(aliasFromRow),
    );
  }
}
