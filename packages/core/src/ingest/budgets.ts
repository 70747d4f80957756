import type { MemoryConfig } from '../config/schema.js';
import { BudgetStep } from '../model/enums.js';
import type { EventBus } from '../observability/events.js';
import type { BudgetStore } from '../ports/budget-store.js';
import type { Clock } from '../ports/clock.js';
import { WriteCoalescer } from './write-coalescer.js';

export interface BudgetCheck {
  readonly step: BudgetStep;
  readonly usedFraction: number;
}

function periods(now: Date): { day: string; month: string } {
  const iso = now.toISOString();
  return { day: `d:${iso.slice(0, 10)}`, month: `m:${iso.slice(0, 7)}` };
}

/**
 * Per-guild prompt-token ceilings kept in the store, so every process sees the same spend.
 * ≥ warnFraction of a ceiling → skip reconcile (and a BudgetWarning); ≥ 100 % → skip extraction.
 */
export class BudgetService {
  readonly #store: BudgetStore;
  readonly #clock: Clock;
  readonly #config: MemoryConfig['budgets'];
  readonly #events: EventBus;
  readonly #charges = new WriteCoalescer();

  constructor(deps: {
    store: BudgetStore;
    clock: Clock;
    config: MemoryConfig['budgets'];
    events: EventBus;
  }) {
    this.#store = deps.store;
    this.#clock = deps.clock;
    this.#config = deps.config;
    this.#events = deps.events;
  }

  get enabled(): boolean {
    return this.#config.guildDailyPromptTokens !== null || this.#config.guildMonthlyPromptTokens !== null;
  }

  /**
   * Adds prompt tokens to the guild's day and month. Charges of one guild and period made while
   * an earlier one is being written go out together, as one write after it (see WriteCoalescer).
   */
  async charge(guildId: string, promptTokens: number): Promise<void> {
    if (promptTokens <= 0) return;
    const p = periods(this.#clock.now());
    await this.#charges.add(`${guildId}\u0000${p.day}\u0000${p.month}`, promptTokens, (tokens) =>
      this.#store.chargeTokens(guildId, [p.day, p.month], tokens),
    );
  }

  async check(guildId: string): Promise<BudgetCheck> {
    if (!this.enabled) return { step: BudgetStep.NONE, usedFraction: 0 };
    const p = periods(this.#clock.now());
    const usage = await this.#store.tokenUsage(guildId, [p.day, p.month]);
    const fractions: number[] = [];
    if (this.#config.guildDailyPromptTokens !== null)
      fractions.push((usage[p.day] ?? 0) / this.#config.guildDailyPromptTokens);
    if (this.#config.guildMonthlyPromptTokens !== null)
      fractions.push((usage[p.month] ?? 0) / this.#config.guildMonthlyPromptTokens);
    const usedFraction = Math.max(0, ...fractions);
    const step =
      usedFraction >= 1
        ? BudgetStep.SKIP_EXTRACTION
        : usedFraction >= this.#config.warnFraction
          ? BudgetStep.SKIP_RECONCILE
          : BudgetStep.NONE;
    if (step !== BudgetStep.NONE) this.#events.emit('BudgetWarning', { guildId, step, usedFraction });
    return { step, usedFraction };
  }
}
