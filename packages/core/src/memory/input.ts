import type { z } from 'zod';
import { ErrorCode, MemoryError } from '../errors/index.js';

/**
 * Parses a public method's input; any problem is MemoryError SCHEMA_INVALID naming the paths
 * (never the values: they may be member content).
 */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  const issues = r.error.issues.slice(0, 50).map((i) => ({
    path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
    code: i.code,
    message: i.message,
  }));
  throw new MemoryError(
    ErrorCode.SCHEMA_INVALID,
    `invalid input at: ${issues.map((i) => i.path.join('.') || '(root)').join(', ')}`,
    { issues },
  );
}
