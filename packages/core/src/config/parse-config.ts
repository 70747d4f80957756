import { ErrorCode, MemoryError, type MemoryIssue } from '../errors/index.js';
import { type MemoryConfig, type MemoryConfigInput, makeConfigSchema } from './schema.js';

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as Record<string, unknown>)) deepFreeze(v);
  }
  return value;
}

export interface ParseConfigOptions {
  /** Environment for `$VAR` expansion (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Validates configuration once: unknown keys, out-of-range values, bad URLs and missing
 * environment variables become one MemoryError CONFIG_INVALID listing every issue.
 */
export function parseConfig(
  input: MemoryConfigInput | undefined = {},
  options: ParseConfigOptions = {},
): MemoryConfig {
  const env = options.env ?? process.env;
  const parsed = makeConfigSchema(env).safeParse(input ?? {});
  if (!parsed.success) {
    const issues: MemoryIssue[] = parsed.error.issues.map((i) => ({
      path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
      code: i.code,
      message: i.message,
    }));
    const where = issues.map((i) => i.path.join('.') || '(root)').join(', ');
    throw new MemoryError(ErrorCode.CONFIG_INVALID, `invalid configuration at: ${where}`, { issues });
  }
  for (const [i, pattern] of (parsed.data.observe.ignorePatterns ?? []).entries()) {
    try {
      new RegExp(pattern, 'iu');
    } catch {
      throw new MemoryError(ErrorCode.CONFIG_INVALID, 'invalid configuration at: observe.ignorePatterns', {
        issues: [
          {
            path: ['observe', 'ignorePatterns', i],
            code: 'invalid_regex',
            message: 'not a valid regular expression',
          },
        ],
      });
    }
  }
  return deepFreeze(parsed.data) as MemoryConfig;
}
