import { configMessage } from '../config/config-issues.js';
import { ErrorCode, MemoryError, type MemoryIssue } from '../errors/index.js';
import type { Logger } from '../ports/logger.js';
import type { MemoryOverrides } from './overrides.js';

/** Overrides that must be a function, or an object whose named members are functions. */
const SHAPES: Readonly<Record<string, 'function' | readonly string[]>> = {
  logger: 'function',
  reranker: ['score'],
  clock: ['now'],
  idGen: ['next'],
  embedder: ['embed'],
  llm: ['complete'],
  smallLlm: ['complete'],
  audiencePolicy: ['gate'],
};

/** Overrides where `null` switches the capability off. */
const NULLABLE = new Set(['logger', 'reranker', 'llm', 'smallLlm']);

/**
 * Checks the host's overrides before anything starts: a logger that is not a function, or a
 * reranker / clock / embedder without its methods, is CONFIG_INVALID naming the key.
 */
export function validateOverrides(overrides: unknown): void {
  if (overrides === undefined) return;
  const issues: MemoryIssue[] = [];
  if (typeof overrides !== 'object' || overrides === null) {
    issues.push({ path: ['overrides'], code: 'invalid_type', message: 'must be an object of adapters' });
  } else {
    const o = overrides as Record<string, unknown>;
    for (const [key, shape] of Object.entries(SHAPES)) {
      const value = o[key];
      if (value === undefined || (value === null && NULLABLE.has(key))) continue;
      if (shape === 'function') {
        if (typeof value !== 'function')
          issues.push({
            path: ['overrides', key],
            code: 'invalid_type',
            message: 'must be a function (event) => void; pass undefined for no logging',
          });
        continue;
      }
      const missing =
        typeof value !== 'object' || value === null
          ? shape
          : shape.filter((m) => typeof (value as Record<string, unknown>)[m] !== 'function');
      if (missing.length > 0)
        issues.push({
          path: ['overrides', key],
          code: 'invalid_type',
          message: `must be an object with ${missing.map((m) => `${m}()`).join(', ')}`,
        });
    }
  }
  if (issues.length > 0) throw new MemoryError(ErrorCode.CONFIG_INVALID, configMessage(issues), { issues });
}

/**
 * The host's logger, isolated: whatever it throws (or a promise it rejects) is swallowed, so a
 * broken logger can never crash the process, fail a call or change a receipt.
 */
export function isolatedLogger(logger: Logger | undefined): Logger | undefined {
  if (!logger) return undefined;
  return (event) => {
    try {
      const result: unknown = logger(event);
      if (result instanceof Promise) result.catch(() => undefined);
    } catch {
      // The logger is the only channel to report this on; there is nothing left to tell.
    }
  };
}

/** The overrides with user code wrapped for isolation. */
export function isolatedOverrides(overrides: MemoryOverrides): MemoryOverrides {
  const logger = isolatedLogger(overrides.logger);
  const { logger: _raw, ...rest } = overrides;
  return logger ? { ...rest, logger } : rest;
}
