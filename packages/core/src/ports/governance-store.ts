import type { GuildSnapshot, GuildStats, PurgeReport } from '../model/admin.js';
import type { Digest } from '../model/graph.js';

export interface ImportCounts {
  readonly facts: number;
  readonly relations: number;
  readonly entities: number;
  readonly aliases: number;
  readonly links: number;
  readonly history: number;
  readonly digests: number;
}

/** One recorded erasure: a purged member (`userId`) or a forgotten message (`messageId`). */
export interface Erasure {
  readonly generation: number;
  readonly userId: string | null;
  readonly messageId: string | null;
  readonly at: Date;
}

/** What `recordErasure` logs (its generation is assigned by the store). */
export type ErasureInput = Omit<Erasure, 'generation'> & { readonly guildId: string };

/** Consent, digests, cursors, budgets, metadata and whole-guild operations. */
export interface GovernanceStore {
  setOptOut(guildId: string, userId: string, optedOut: boolean, at: Date): Promise<void>;
  isOptedOut(guildId: string, userId: string): Promise<boolean>;
  optedOutUsers(guildId: string): Promise<string[]>;

  getDigest(guildId: string, subjectId: string | null): Promise<Digest | null>;
  putDigest(digest: Digest): Promise<void>;

  getCursor(guildId: string, key: string): Promise<string | null>;
  setCursor(guildId: string, key: string, value: string): Promise<void>;

  /** Adds prompt tokens to each period counter (e.g. `d:2026-11-29`, `m:2026-11`) atomically. */
  chargeTokens(guildId: string, periods: readonly string[], tokens: number): Promise<void>;
  /** Current counters for these periods (0 when absent). */
  tokenUsage(guildId: string, periods: readonly string[]): Promise<Record<string, number>>;

  /** Store-wide key/value metadata (embedder id and dimensions, schema facts). */
  getMeta(key: string): Promise<string | null>;
  setMeta(key: string, value: string): Promise<void>;

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
   * Appends an erasure to the guild's log and returns the guild's new erasure generation (1, 2, …,
   * strictly increasing, atomic under concurrent callers).
   */
  recordErasure(input: ErasureInput): Promise<number>;
  /** The guild's current erasure generation (0 when none) and the erasures after `generation`, oldest first. */
  erasuresSince(
    guildId: string,
    generation: number,
  ): Promise<{ readonly generation: number; readonly erasures: readonly Erasure[] }>;
  /** Drops logged erasures recorded before `before` (the generation counter is kept). Returns rows dropped. */
  pruneErasures(before: Date): Promise<number>;

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
