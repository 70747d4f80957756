import type { MeterPurpose } from '../model/enums.js';

export interface MeterRecord {
  readonly purpose: MeterPurpose;
  readonly model: string;
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly costUsd: number | null;
  readonly guildId?: string;
}

export interface PurposeTotals {
  readonly calls: number;
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly costUsd: number;
  /** Calls whose cost could not be determined (no provider cost and no price entry). */
  readonly unpricedCalls: number;
}

export interface MeterSnapshot {
  readonly byPurpose: Readonly<Record<string, PurposeTotals>>;
  readonly total: PurposeTotals;
}

/** Per-process accounting of model usage. Guild budgets are store-backed (GovernanceStore). */
export interface Meter {
  record(record: MeterRecord): void;
  snapshot(): MeterSnapshot;
}

export interface MeterTotals extends PurposeTotals {
  /** Calls that failed (LLM_UNAVAILABLE / LLM_CAPABILITY); not part of `calls` or the token counts. */
  readonly failedCalls: number;
}

export interface PricedMeterSnapshot extends MeterSnapshot {
  readonly byPurpose: Readonly<Record<string, MeterTotals>>;
  readonly total: MeterTotals;
}
