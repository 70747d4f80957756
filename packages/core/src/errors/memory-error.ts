import { ErrorCode } from './error-codes.js';

/** One problem found while validating input or configuration. Never holds user content. */
export interface MemoryIssue {
  readonly path: readonly (string | number)[];
  readonly code: string;
  readonly message: string;
}

export interface MemoryErrorOptions {
  readonly cause?: unknown;
  readonly issues?: readonly MemoryIssue[];
}

/**
 * The one error class of Permafrost. Messages are fixed strings chosen by the library and never
 * contain chat content, user names or query text.
 */
export class MemoryError extends Error {
  override readonly name = 'MemoryError';
  readonly code: ErrorCode;
  readonly issues: readonly MemoryIssue[];

  constructor(code: ErrorCode, message: string, options: MemoryErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.issues = options.issues ?? [];
  }

  static is(value: unknown, code?: ErrorCode): value is MemoryError {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as { name?: unknown }).name === 'MemoryError' &&
      typeof (value as { code?: unknown }).code === 'string' &&
      (code === undefined || (value as { code: unknown }).code === code)
    );
  }
}

/** Turns anything thrown into a MemoryError, keeping the original as `cause`. */
export function toMemoryError(
  cause: unknown,
  fallback: ErrorCode = ErrorCode.INTERNAL,
  message?: string,
): MemoryError {
  if (MemoryError.is(cause)) return cause;
  return new MemoryError(fallback, message ?? `operation failed (${fallback})`, { cause });
}
