import { ErrorCode, MemoryError, type MemoryIssue } from '../errors/index.js';
import { configIssues, configMessage } from './config-issues.js';
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
  const schema = makeConfigSchema(env);
  const parsed = schema.safeParse(input ?? {}, { reportInput: true });
  if (!parsed.success) {
    const issues = configIssues(parsed.error.issues, schema);
    throw new MemoryError(ErrorCode.CONFIG_INVALID, configMessage(issues), { issues });
  }
  for (const [i, pattern] of (parsed.data.observe.ignorePatterns ?? []).entries()) {
    try {
      new RegExp(pattern, 'iu');
    } catch {
      const issues: MemoryIssue[] = [
        {
          path: ['observe', 'ignorePatterns', i],
          code: 'invalid_regex',
          message: 'is not a valid regular expression; fix or remove the pattern',
        },
      ];
      throw new MemoryError(ErrorCode.CONFIG_INVALID, configMessage(issues), { issues });
    }
  }
  return deepFreeze(parsed.data) as MemoryConfig;
}
