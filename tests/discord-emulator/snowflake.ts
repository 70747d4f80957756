/**
 * Discord snowflakes: 64-bit ids whose top 42 bits are milliseconds since the Discord epoch
 * (2015-01-01T00:00:00Z). The generator below always returns strictly increasing ids.
 */
export const DISCORD_EPOCH_MS = 1_420_070_400_000;

const EPOCH = BigInt(DISCORD_EPOCH_MS);
const WORKER_ID = 1n;
const PROCESS_ID = 0n;
const MAX_INCREMENT = 0xfffn;

export class SnowflakeGenerator {
  readonly #worker: bigint;
  #lastTimestamp = 0n;
  #increment = 0n;

  /** `workerId` (0–31) keeps ids of separate generators apart even within one millisecond. */
  constructor(workerId = Number(WORKER_ID)) {
    this.#worker = BigInt(workerId & 31);
  }

  /** Returns a new snowflake; `atMs` defaults to now but never moves the sequence backwards. */
  next(atMs: number = Date.now()): string {
    let timestamp = BigInt(Math.max(atMs, DISCORD_EPOCH_MS)) - EPOCH;
    if (timestamp < this.#lastTimestamp) timestamp = this.#lastTimestamp;
    if (timestamp === this.#lastTimestamp) {
      this.#increment += 1n;
      if (this.#increment > MAX_INCREMENT) {
        timestamp += 1n;
        this.#increment = 0n;
      }
    } else {
      this.#increment = 0n;
    }
    this.#lastTimestamp = timestamp;
    return ((timestamp << 22n) | (this.#worker << 17n) | (PROCESS_ID << 12n) | this.#increment).toString();
  }
}

const shared = new SnowflakeGenerator();

/** A fresh, process-wide strictly increasing snowflake. */
export function snowflake(atMs?: number): string {
  return shared.next(atMs);
}

/** Milliseconds since the Unix epoch encoded in a snowflake. */
export function snowflakeTimestamp(id: string): number {
  return Number(BigInt(id) >> 22n) + DISCORD_EPOCH_MS;
}

/** True for a decimal string that fits Discord's 64-bit snowflake format. */
export function isSnowflake(value: string): boolean {
  if (!/^\d{1,20}$/.test(value)) return false;
  return BigInt(value) < 1n << 64n;
}

/** Compares two snowflakes numerically (usable as an `Array#sort` comparator). */
export function compareSnowflakes(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Inserts a snowflake into an ascending list (an append for every new message; history seeds may land earlier). */
export function insertSnowflake(list: string[], id: string): void {
  const last = list[list.length - 1];
  if (last === undefined || compareSnowflakes(last, id) < 0) {
    list.push(id);
    return;
  }
  list.splice(lowerBound(list, id), 0, id);
}

/** Index of the first id in an ascending list that is not below `id`. */
export function lowerBound(list: readonly string[], id: string): number {
  const target = BigInt(id);
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (BigInt(list[mid] as string) < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
