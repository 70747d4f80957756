import type { GuildSnapshot, GuildStats } from '../model/admin.js';
import type { ImportPlan, PurgePlan } from '../model/governance-plans.js';

/**
 * Whole-guild operations: apply core's purge and import plans, export, statistics, the list of
 * guilds. Plans are decided in core (`governance/`); a store only writes the rows they name.
 */
export interface GuildAdminStore {
  /**
   * Writes a purge plan in one transaction (joining the caller's): deletes the facts named (with
   * history, keyword rows and vectors), the links, relations, aliases, digests, messages (with
   * keyword rows and vectors) and entities (with their alias index) it names, rewrites the
   * evidence and sources it lists, clears the entity links it lists. Rows already gone are
   * skipped. On a store with `physicalPurge` the bytes are gone from its files once the
   * transaction commits (SQLite: `secure_delete`, keyword indexes merged, WAL truncated).
   */
  applyPurge(plan: PurgePlan): Promise<void>;

  /**
   * After content was deleted or rewritten in the caller's transaction (a forgotten message, a
   * scrubbed fact): on a store with `physicalPurge`, rewrites what could still hold the old bytes
   * (SQLite: merges both keyword indexes, truncates the WAL after the commit). No-op elsewhere.
   */
  compactDeleted(): Promise<void>;

  /**
   * Every fact (incl. inactive), history, link, relation, entity, alias, digest and opt-out (with
   * its date) of the guild.
   */
  exportGuild(guildId: string): Promise<GuildSnapshot>;
  /** Writes an import plan in one transaction (joining the caller's); vectors are the caller's job. */
  applyImport(plan: ImportPlan): Promise<void>;

  guildStats(guildId: string): Promise<GuildStats>;
  /** Guilds with any fact or message. */
  listGuildIds(): Promise<string[]>;
}
