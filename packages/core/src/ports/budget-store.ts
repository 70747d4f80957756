/** Prompt-token counters per guild and period, for the extraction budget. */
export interface BudgetStore {
  /** Adds prompt tokens to each period counter (e.g. `d:2026-11-29`, `m:2026-11`) atomically. */
  chargeTokens(guildId: string, periods: readonly string[], tokens: number): Promise<void>;
  /** Current counters for these periods (0 when absent). */
  tokenUsage(guildId: string, periods: readonly string[]): Promise<Record<string, number>>;
}
