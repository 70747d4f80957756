import type { GuildSnapshot, GuildStats, PurgeReport } from '../model/admin.js';

export interface ImportCounts {
  readonly facts: number;
  readonly relations: number;
  readonly entities: number;
  readonly aliases: number;
  readonly links: number;
  readonly history: number;
  readonly digests: number;
}

/** Whole-guild operations: purge a member, export and import, statistics, the list of guilds. */
export interface GuildAdminStore {
  /**
   * Counts (dryRun) or removes every trace of a user in a guild: facts where they are subject or
   * speaker (with vectors, keyword rows and history), links and relations touching them, aliases,
   * digest, messages they authored (any status), source refs they authored on remaining facts,
   * entity links to them, and their opt-out row. Nothing of theirs stays readable afterwards.
   */
  purgeUser(input: {
    readonly guildId: string;
    readonly userId: string;
    readonly dryRun: boolean;
  }): Promise<PurgeReport>;

  /**
   * After content was deleted or rewritten in the caller's transaction (a forgotten message, a
   * scrubbed fact): on a store with `physicalPurge`, rewrites what could still hold the old bytes
   * (SQLite: merges both keyword indexes, truncates the WAL after the commit). No-op elsewhere.
   */
  compactDeleted(): Promise<void>;

  /** Every fact (incl. inactive), history, link, relation, entity, alias, digest and opt-out of the guild. */
  exportGuild(guildId: string): Promise<GuildSnapshot>;
  /** Writes a snapshot (upsert by natural key); vectors are the caller's job. */
  importGuild(snapshot: GuildSnapshot): Promise<ImportCounts>;

  guildStats(guildId: string): Promise<GuildStats>;
  /** Guilds with any fact or message. */
  listGuildIds(): Promise<string[]>;
}
