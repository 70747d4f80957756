import { ErrorCode, MemoryError } from '@permafrost/core';
import { errorHints } from '@permafrost/core/internal';

/** Process exit codes (documented in docs/cli.md). */
export const ExitCode = {
  OK: 0,
  FAILURE: 1,
  USAGE: 2,
  CONFIG: 3,
  STORAGE: 4,
  NOT_FOUND: 5,
  DIMENSION_MISMATCH: 6,
  NOT_INSTALLED: 7,
  LLM: 8,
  INTERRUPTED: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

const BY_CODE: Partial<Record<ErrorCode, ExitCode>> = {
  CONFIG_INVALID: ExitCode.CONFIG,
  SCHEMA_INVALID: ExitCode.USAGE,
  NOT_FOUND: ExitCode.NOT_FOUND,
  STORE_UNAVAILABLE: ExitCode.STORAGE,
  STORE_BUSY: ExitCode.STORAGE,
  STORE_READ_ONLY: ExitCode.STORAGE,
  STORE_FULL: ExitCode.STORAGE,
  STORE_CORRUPT: ExitCode.STORAGE,
  SCHEMA_VERSION_UNSUPPORTED: ExitCode.STORAGE,
  DIMENSION_MISMATCH: ExitCode.DIMENSION_MISMATCH,
  BACKEND_NOT_INSTALLED: ExitCode.NOT_INSTALLED,
  MODEL_NOT_FOUND: ExitCode.NOT_INSTALLED,
  LLM_UNAVAILABLE: ExitCode.LLM,
  LLM_CAPABILITY: ExitCode.LLM,
  LLM_OUTPUT_INVALID: ExitCode.LLM,
};

/** Exit code and printable lines for an error: code + message + hint, stack only when verbose. */
export function describeError(
  error: unknown,
  verbose: boolean,
  usage?: string,
): { exit: ExitCode; lines: string[] } {
  if (error instanceof UsageError)
    return { exit: ExitCode.USAGE, lines: [`error: ${error.message}`, usage ?? error.usage] };
  if (MemoryError.is(error)) {
    // A configuration message repeats its issues, which follow one per line.
    const listed = error.code === ErrorCode.CONFIG_INVALID && error.issues.length > 0;
    const lines = [
      `error ${error.code}: ${listed ? 'invalid configuration' : error.message}`,
      `hint: ${errorHints[error.code]}`,
    ];
    for (const issue of error.issues.slice(0, 10))
      lines.push(`  - ${issue.path.join('.') || '(root)'}: ${issue.message}`);
    if (verbose && error.stack) lines.push(error.stack);
    if (verbose && error.cause)
      lines.push(
        `cause: ${error.cause instanceof Error ? (error.cause.stack ?? error.cause.message) : String(error.cause)}`,
      );
    return { exit: BY_CODE[error.code] ?? ExitCode.FAILURE, lines };
  }
  const lines = [`error: ${error instanceof Error ? error.message : String(error)}`];
  if (verbose && error instanceof Error && error.stack) lines.push(error.stack);
  return { exit: ExitCode.FAILURE, lines };
}

export class UsageError extends Error {
  override readonly name = 'UsageError';
  /** Usage line printed after the message (the command's own, or the general one). */
  readonly usage: string;

  constructor(message: string, usage = 'run `permafrost help` for usage') {
    super(message);
    this.usage = usage;
  }
}

export { ErrorCode };
