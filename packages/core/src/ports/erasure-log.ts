/** One recorded erasure: a purged member (`userId`) or a forgotten message (`messageId`). */
export interface Erasure {
  readonly generation: number;
  readonly userId: string | null;
  readonly messageId: string | null;
  readonly at: Date;
}

/** What `recordErasure` logs (its generation is assigned by the store). */
export type ErasureInput = Omit<Erasure, 'generation'> & { readonly guildId: string };

/** The per-guild erasure log that fences extraction commits against purges and forgotten messages. */
export interface ErasureLog {
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
}
