import type { MemoryConfig } from '../config/schema.js';

/** A member's observe burst: `observe.memberBurst`, or a quarter of the guild queue. */
export function memberBurstOf(config: MemoryConfig): number {
  return config.observe.memberBurst ?? Math.max(1, Math.floor(config.observe.maxQueueDepthPerGuild / 4));
}

/** A member's extraction batches per hour: `budgets.memberBatchesPerHour`, or its burst in batches. */
export function memberBatchesPerHourOf(config: MemoryConfig): number {
  return (
    config.budgets.memberBatchesPerHour ??
    Math.ceil(memberBurstOf(config) / config.batching.batchSizeMessages)
  );
}

/** The effective per-member shares of a configuration (defaults resolved). */
export function memberSharesOf(config: MemoryConfig): {
  readonly burst: number;
  readonly batchesPerHour: number;
} {
  return { burst: memberBurstOf(config), batchesPerHour: memberBatchesPerHourOf(config) };
}

/** Buckets kept at most; full (idle) buckets are dropped first when there are more. */
const MAX_BUCKETS = 100_000;

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * A token bucket per (guild, member): `burst` tokens, refilled by `refill` per `windowMs`. One member's
 * flood spends only that member's tokens: observe rejects it long before it can fill the guild
 * queue, and extraction leaves its batches waiting once it used its share of calls, while
 * everyone else keeps theirs. Per process, O(1) per take.
 */
export class MemberRate {
  readonly #burst: number;
  readonly #refill: number;
  readonly #windowMs: number;
  readonly #buckets = new Map<string, Bucket>();

  /** `burst` tokens, `refill` more every `windowMs`. */
  constructor(burst: number, refill: number, windowMs: number) {
    this.#burst = burst;
    this.#refill = refill;
    this.#windowMs = windowMs;
  }

  /** Takes one token for the member; false when the member is over its rate. */
  take(guildId: string, userId: string, now: Date): boolean {
    const k = `${guildId}\u0000${userId}`;
    const t = now.getTime();
    const b = this.#buckets.get(k) ?? { tokens: this.#burst, at: t };
    b.tokens = Math.min(this.#burst, b.tokens + (Math.max(0, t - b.at) * this.#refill) / this.#windowMs);
    b.at = t;
    if (b.tokens < 1) {
      this.#buckets.set(k, b);
      return false;
    }
    b.tokens -= 1;
    this.#buckets.delete(k);
    this.#buckets.set(k, b);
    if (this.#buckets.size > MAX_BUCKETS) {
      const oldest = this.#buckets.keys().next().value;
      if (oldest !== undefined) this.#buckets.delete(oldest);
    }
    return true;
  }
}
