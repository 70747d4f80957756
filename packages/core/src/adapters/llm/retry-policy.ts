import { APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { MemoryError } from '../../errors/memory-error.js';
import type { Logger } from '../../ports/logger.js';

/** HTTP statuses that are retried (with backoff) up to `maxRetries` times. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 409, 429, 500, 502, 503, 504]);
/** HTTP statuses that mean "this request shape is not supported": never retried. */
export const CAPABILITY_STATUSES: ReadonlySet<number> = new Set([400, 404, 422]);

/** First backoff delay; doubles per retry. */
export const BACKOFF_BASE_MS = 500;
/** Ceiling of the exponential backoff (before jitter). */
export const BACKOFF_MAX_MS = 8_000;
/** Longest `retry-after` / `retry-after-ms` honoured; longer values are clamped to this. */
export const RETRY_AFTER_CAP_MS = 30_000;

export type Sleep = (ms: number) => Promise<void>;

/** The provider answered 2xx, but the body was not a usable response (malformed, empty choices, …). */
export class InvalidResponseError extends Error {
  override readonly name = 'InvalidResponseError';
}

/** What went wrong with one attempt, in content-free terms. */
export type AttemptFailure =
  | { readonly kind: 'aborted' }
  | { readonly kind: 'capability'; readonly status: number }
  | { readonly kind: 'fatal'; readonly status: number }
  | {
      readonly kind: 'retryable';
      readonly reason: 'http' | 'timeout' | 'connection' | 'invalid_response';
      readonly status: number | null;
      readonly retryAfterMs: number | null;
    };

/** Parses `retry-after-ms` (OpenAI) or `retry-after` (seconds or an HTTP date); null when absent. */
export function parseRetryAfter(headers: Headers | undefined, now: number = Date.now()): number | null {
  if (!headers) return null;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const raw = headers.get('retry-after');
  if (raw === null || raw.trim() === '') return null;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

export function classifyFailure(error: unknown, signal: AbortSignal | undefined): AttemptFailure {
  if (signal?.aborted || error instanceof APIUserAbortError) return { kind: 'aborted' };
  if (error instanceof APIConnectionTimeoutError)
    return { kind: 'retryable', reason: 'timeout', status: null, retryAfterMs: null };
  if (error instanceof APIError) {
    const status = error.status;
    if (status === undefined)
      return { kind: 'retryable', reason: 'connection', status: null, retryAfterMs: null };
    if (CAPABILITY_STATUSES.has(status)) return { kind: 'capability', status };
    if (RETRYABLE_STATUSES.has(status))
      return { kind: 'retryable', reason: 'http', status, retryAfterMs: parseRetryAfter(error.headers) };
    return { kind: 'fatal', status };
  }
  if (error instanceof InvalidResponseError || error instanceof SyntaxError)
    return { kind: 'retryable', reason: 'invalid_response', status: null, retryAfterMs: null };
  // Anything else thrown by fetch / body reading (socket reset mid-body, …) is a transport failure.
  return { kind: 'retryable', reason: 'connection', status: null, retryAfterMs: null };
}

/** Delay before retry number `retry` (1-based): `retry-after` when given (capped), else jittered backoff. */
export function retryDelayMs(retry: number, retryAfterMs: number | null, random: () => number): number {
  if (retryAfterMs !== null) return Math.min(retryAfterMs, RETRY_AFTER_CAP_MS);
  const exp = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (retry - 1));
  return Math.round(exp * (0.5 + 0.5 * random()));
}

/** Short, content-free description of a failure for messages and logs. */
export function describeFailure(failure: AttemptFailure): string {
  switch (failure.kind) {
    case 'aborted':
      return 'aborted';
    case 'capability':
    case 'fatal':
      return `HTTP ${failure.status}`;
    case 'retryable':
      if (failure.reason === 'http') return `HTTP ${failure.status}`;
      return failure.reason === 'invalid_response' ? 'invalid response' : `${failure.reason} error`;
  }
}

export const defaultSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

async function sleepUnlessAborted(sleep: Sleep, ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return sleep(ms);
  if (signal.aborted) throw abortReason(signal);
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([sleep(ms), aborted]);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

export interface RetryOptions {
  /** `llm` or `embeddings`: prefixes log events. */
  readonly operation: 'llm' | 'embeddings';
  readonly model: string;
  readonly maxRetries: number;
  readonly sleep: Sleep;
  readonly random: () => number;
  readonly logger: Logger | undefined;
  readonly signal: AbortSignal | undefined;
  /** Builds the error thrown for a capability status (400/404/422). */
  readonly onCapability: (status: number, cause: unknown) => Error;
  /** Builds the error thrown after the last retryable failure, or for a fatal status. */
  readonly onUnavailable: (failure: AttemptFailure, attempts: number, cause: unknown) => Error;
}

/**
 * Runs `attempt` up to `maxRetries + 1` times. Capability statuses throw at once; other non-retryable
 * statuses (401, 403, …) give up at once; an abort rethrows the signal's reason.
 */
export async function withRetries<T>(options: RetryOptions, attempt: () => Promise<T>): Promise<T> {
  const { signal, logger } = options;
  for (let n = 1; ; n++) {
    if (signal?.aborted) throw abortReason(signal);
    try {
      return await attempt();
    } catch (error) {
      // A MemoryError from inside an attempt (e.g. a vector of the wrong size) is final as is.
      if (MemoryError.is(error)) throw error;
      const failure = classifyFailure(error, signal);
      if (failure.kind === 'aborted') throw signal ? abortReason(signal) : error;
      const data = { model: options.model, attempt: n, failure: describeFailure(failure) };
      if (failure.kind === 'capability') {
        logger?.({ level: 'error', event: `${options.operation}.capability_error`, data });
        throw options.onCapability(failure.status, error);
      }
      if (failure.kind === 'fatal' || n > options.maxRetries) {
        logger?.({ level: 'error', event: `${options.operation}.unavailable`, data });
        throw options.onUnavailable(failure, n, error);
      }
      const delayMs = retryDelayMs(n, failure.retryAfterMs, options.random);
      logger?.({ level: 'warn', event: `${options.operation}.retry`, data: { ...data, delayMs } });
      await sleepUnlessAborted(options.sleep, delayMs, signal);
    }
  }
}
