import type { z } from 'zod';
import { ErrorCode, MemoryError, type MemoryIssue } from '../errors/index.js';

/** At most this many issues are reported (a huge wrong input must not make a huge error). */
const MAX_ISSUES = 50;

/**
 * Zod issues as MemoryIssues: path, code and zod's own message, which names the expected shape
 * and never the received value (object keys appear only as path segments).
 */
export function issuesOf(error: z.ZodError): MemoryIssue[] {
  return error.issues.slice(0, MAX_ISSUES).map((i) => ({
    path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
    code: i.code,
    message: i.message,
  }));
}

/** A SCHEMA_INVALID error for `where` (a method name) naming the paths of the issues, never content. */
export function schemaInvalid(where: string, issues: readonly MemoryIssue[]): MemoryError {
  const paths = [...new Set(issues.map((i) => i.path.join('.') || '(root)'))].slice(0, 10);
  return new MemoryError(ErrorCode.SCHEMA_INVALID, `invalid input for ${where} at: ${paths.join(', ')}`, {
    issues,
  });
}

export type Checked<T> =
  | { readonly ok: true; readonly data: T }
  | { readonly ok: false; readonly error: MemoryError };

/** Validates without throwing (for the read paths that answer bad input with a warning). */
export function checkInput<T extends z.ZodType>(
  schema: T,
  value: unknown,
  where: string,
): Checked<z.output<T>> {
  let parsed: ReturnType<T['safeParse']>;
  try {
    parsed = schema.safeParse(value) as ReturnType<T['safeParse']>;
  } catch {
    // A getter or proxy in the input that throws while being read is bad input too.
    return {
      ok: false,
      error: schemaInvalid(where, [{ path: [], code: 'unreadable', message: 'the input could not be read' }]),
    };
  }
  if (parsed.success) return { ok: true, data: parsed.data as z.output<T> };
  return { ok: false, error: schemaInvalid(where, issuesOf(parsed.error as z.ZodError)) };
}

/**
 * The one input check of every public method: strict schema, no coercion, bounded sizes.
 * Throws MemoryError SCHEMA_INVALID with each issue's path; never echoes the input. With `at`,
 * `value` is a part of the method's input (an array item, a nested document) and the issues'
 * paths start with `at`.
 */
export function parseInput<T extends z.ZodType>(
  schema: T,
  value: unknown,
  where: string,
  at: readonly (string | number)[] = [],
): z.output<T> {
  const checked = checkInput(schema, value, where);
  if (checked.ok) return checked.data;
  if (at.length === 0) throw checked.error;
  throw schemaInvalid(
    where,
    checked.error.issues.map((issue) => ({ ...issue, path: [...at, ...issue.path] })),
  );
}

/** For methods that take no argument: anything passed (other than trailing `undefined`) is SCHEMA_INVALID. */
export function parseNoArgs(args: readonly unknown[], where: string): void {
  const index = args.findLastIndex((a) => a !== undefined);
  if (index >= 0)
    throw schemaInvalid(where, [
      { path: [index], code: 'too_big', message: 'this method takes no arguments' },
    ]);
}
