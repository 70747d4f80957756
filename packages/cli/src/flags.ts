import type { CommandContext } from './context.js';
import { UsageError } from './exit-codes.js';

/**
 * An integer flag: absent → `fallback`; anything but a whole number in [min, max] is a usage error
 * naming the flag and the accepted range.
 */
export function intFlag(
  ctx: CommandContext,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = ctx.values[name];
  if (raw === undefined) return fallback;
  const text = typeof raw === 'string' ? raw.trim() : '';
  const value = /^-?\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max)
    throw new UsageError(
      `--${name} must be a whole number from ${min} to ${max} (got "${text.slice(0, 20)}")`,
    );
  return value;
}
