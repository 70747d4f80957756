import type { Fact, FactHistoryEntry, FactPatch, Page } from '../model/fact.js';

/**
 * Which facts a read considers.
 * - `subjectIds`: only facts about these users (plus server facts when `includeServer`).
 * - `serverOnly`: only server facts (subjectId null).
 * - neither: every fact of the guild.
 * - `validity`: `active` (default: not superseded, no validUntil), `any`, or `{ asOf }` for
 *   facts valid at that instant (validFrom ≤ asOf < validUntil; supersession ignored).
 */
export interface FactFilter {
  readonly guildId: string;
  readonly subjectIds?: readonly string[];
  readonly serverOnly?: boolean;
  readonly includeServer?: boolean;
  readonly validity?: FactValidity;
}

export type FactValidity = 'active' | 'any' | { readonly asOf: Date };

export type FactOrder = 'oldest' | 'newest' | 'random';

export interface ListFactsOptions extends FactFilter {
  readonly limit: number;
  /** Opaque cursor from a previous page. Not allowed with `random`. */
  readonly cursor?: string;
  readonly order?: FactOrder;
}

export interface TextHit {
  readonly fact: Fact;
  /** BM25 relevance, higher is better, > 0. */
  readonly score: number;
  /** As on MessageTextHit: what a document holding every query term once would score. Optional. */
  readonly fullMatchScore?: number;
}

/** A member's (null: the server's) fact text as `findByNormalizedText` looks it up. */
export interface NormalizedTextKey {
  readonly subjectId: string | null;
  readonly normalizedText: string;
}

/** A page of a fact read in id order: at most `limit` facts with an id above `afterId`. */
export interface FactPageOptions {
  readonly limit: number;
  readonly afterId?: string;
}

export interface UpdateFactOptions {
  readonly at: Date;
  /** Optimistic concurrency: the update applies only if the stored version equals this. */
  readonly expectedVersion?: number;
}

/** Facts and their audit history. Keyword index rows are kept in sync by the store. */
export interface FactStore {
  /** Inserts new facts. An id that already exists fails with MemoryError CONFLICT and inserts nothing. */
  insert(facts: readonly Fact[]): Promise<void>;
  /**
   * Inserts the facts of one guild that are new: a fact with the subject and normalized text of
   * an active stored fact, or of a fact earlier in the list, is not inserted. Returns, per fact in
   * order, null when it was inserted, else the fact it duplicates. Several processes inserting the
   * same (subject, text) at once store it once: the check and the insert are one step per key.
   */
  insertDistinct(guildId: string, facts: readonly Fact[]): Promise<(Fact | null)[]>;
  /** Facts in request order; unknown ids and ids of other guilds are dropped. */
  get(guildId: string, ids: readonly string[]): Promise<Fact[]>;
  /**
   * Applies a patch, increments `version` and sets `updatedAt = at`. Returns the new fact, or null
   * when the fact does not exist or `expectedVersion` does not match.
   */
  update(guildId: string, id: string, patch: FactPatch, options: UpdateFactOptions): Promise<Fact | null>;
  /** The active fact of this subject (null = server) with exactly this normalized text. */
  findByNormalizedText(
    guildId: string,
    subjectId: string | null,
    normalizedText: string,
  ): Promise<Fact | null>;
  /**
   * `findByNormalizedText` for several (subject, normalized text) keys of one guild in one call:
   * the answer for each key in request order (null where no active fact has that text).
   */
  findByNormalizedTexts(guildId: string, keys: readonly NormalizedTextKey[]): Promise<(Fact | null)[]>;
  /** A page of facts in id order (oldest/newest first) or a random sample (no cursor). */
  list(options: ListFactsOptions): Promise<Page<Fact>>;
  /** Strongest facts first (strength desc, then lastReinforcedAt desc, then id). */
  topStrength(filter: FactFilter, limit: number): Promise<Fact[]>;
  /**
   * Keyword search: facts containing ANY of `terms` (already analysed by core's `indexTerms`),
   * ranked by BM25 (k1 1.2, b 0.75). Terms are data, never query syntax.
   */
  searchText(filter: FactFilter, terms: readonly string[], limit: number): Promise<TextHit[]>;
  /** Sets lastReinforcedAt = at on these facts without changing version. Returns rows touched. */
  touch(guildId: string, ids: readonly string[], at: Date): Promise<number>;
  /** Every fact of the guild (any validity) with a source ref of one of these messages, in id order. */
  citing(guildId: string, messageIds: readonly string[]): Promise<Fact[]>;
  /** Facts (any validity) whose attribution names this speaker, in id order, one page. */
  statedBy(guildId: string, speakerId: string, page: FactPageOptions): Promise<Fact[]>;
  /** Facts (any validity) with a source ref authored by this member, in id order, one page. */
  quoting(guildId: string, authorId: string, page: FactPageOptions): Promise<Fact[]>;
  appendHistory(entries: readonly FactHistoryEntry[]): Promise<void>;
  /** How many history entries these facts have together. */
  countHistory(guildId: string, factIds: readonly string[]): Promise<number>;
  /** History of a fact, oldest first. */
  history(guildId: string, factId: string): Promise<FactHistoryEntry[]>;
}
