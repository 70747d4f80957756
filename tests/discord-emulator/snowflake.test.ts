import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compareSnowflakes,
  DISCORD_EPOCH_MS,
  isSnowflake,
  SnowflakeGenerator,
  snowflakeTimestamp,
} from './snowflake.js';

describe('discord emulator: snowflakes', () => {
  it('generates valid, strictly increasing snowflakes that encode their timestamp', () => {
    const generator = new SnowflakeGenerator();
    const now = Date.now();
    const batch = Array.from({ length: 5_000 }, () => generator.next(now));
    expect(batch.every(isSnowflake)).toBe(true);
    expect(new Set(batch).size).toBe(batch.length);
    for (let i = 1; i < batch.length; i++)
      expect(compareSnowflakes(batch[i - 1] ?? '', batch[i] ?? '')).toBe(-1);
    expect(snowflakeTimestamp(batch[0] ?? '')).toBe(now);
    // 4096 ids per millisecond: the overflow spills into the next millisecond.
    expect(snowflakeTimestamp(batch.at(-1) ?? '')).toBe(now + 1);
  });

  it('round-trips arbitrary timestamps and never goes backwards', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: DISCORD_EPOCH_MS, max: DISCORD_EPOCH_MS + 2 ** 41 }), { minLength: 1 }),
        (times) => {
          const generator = new SnowflakeGenerator();
          let previous = '0';
          let maxTime = 0;
          for (const t of times) {
            const id = generator.next(t);
            maxTime = Math.max(maxTime, t);
            expect(compareSnowflakes(previous, id)).toBe(-1);
            expect(snowflakeTimestamp(id)).toBe(maxTime);
            previous = id;
          }
        },
      ),
    );
    expect(isSnowflake('18446744073709551616')).toBe(false);
    expect(isSnowflake('abc')).toBe(false);
  });
});
