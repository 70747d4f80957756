import type { MeterPurpose } from '../../model/enums.js';
import type { Meter, MeterRecord, MeterTotals, PricedMeterSnapshot } from '../../ports/meter.js';
import { DEFAULT_PRICES, type PriceTable, priceCall } from './price-table.js';

export interface MeterOptions {
  /** Extra / overriding prices (`budgets.prices`), merged over the defaults. */
  readonly prices?: PriceTable;
  /** Use DEFAULT_PRICES underneath `prices` (default true). */
  readonly defaultPrices?: boolean;
}

/** The in-process meter: per-purpose totals, cost by provider report or price table. */
export interface PricedMeter extends Meter {
  /** Counts a failed call (no tokens are known for it). */
  recordFailure(purpose: MeterPurpose): void;
  /** The cost a record is booked at: provider-reported, else the price table, else null. */
  costOf(record: MeterRecord): number | null;
  snapshot(): PricedMeterSnapshot;
  reset(): void;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const emptyTotals = (): Mutable<MeterTotals> => ({
  calls: 0,
  promptTokens: 0,
  completionTokens: 0,
  costUsd: 0,
  unpricedCalls: 0,
  failedCalls: 0,
});

class InMemoryMeter implements PricedMeter {
  readonly #prices: PriceTable;
  #byPurpose = new Map<string, Mutable<MeterTotals>>();

  constructor(options: MeterOptions) {
    this.#prices = { ...(options.defaultPrices === false ? {} : DEFAULT_PRICES), ...options.prices };
  }

  #totals(purpose: string): Mutable<MeterTotals> {
    let t = this.#byPurpose.get(purpose);
    if (!t) {
      t = emptyTotals();
      this.#byPurpose.set(purpose, t);
    }
    return t;
  }

  costOf(record: MeterRecord): number | null {
    if (record.costUsd !== null && Number.isFinite(record.costUsd)) return record.costUsd;
    return priceCall(record.model, record.promptTokens, record.completionTokens, this.#prices);
  }

  record(record: MeterRecord): void {
    const t = this.#totals(record.purpose);
    t.calls += 1;
    t.promptTokens += record.promptTokens;
    t.completionTokens += record.completionTokens;
    const cost = this.costOf(record);
    if (cost === null) t.unpricedCalls += 1;
    else t.costUsd += cost;
  }

  recordFailure(purpose: MeterPurpose): void {
    this.#totals(purpose).failedCalls += 1;
  }

  snapshot(): PricedMeterSnapshot {
    const byPurpose: Record<string, MeterTotals> = {};
    const total = emptyTotals();
    for (const [purpose, t] of this.#byPurpose) {
      byPurpose[purpose] = { ...t };
      for (const key of Object.keys(total) as (keyof MeterTotals)[]) total[key] += t[key];
    }
    return { byPurpose, total };
  }

  reset(): void {
    this.#byPurpose = new Map();
  }
}

/**
 * A per-process meter. Cost per call = provider-reported `costUsd`, else the price table (model-name
 * substring, longest match wins; `prices` over DEFAULT_PRICES), else the call is counted in
 * `unpricedCalls` and adds nothing to `costUsd`.
 */
export function createMeter(options: MeterOptions = {}): PricedMeter {
  return new InMemoryMeter(options);
}
export type { MeterTotals, PricedMeterSnapshot } from '../../ports/meter.js';
