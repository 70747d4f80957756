/**
 * Structured log events. The library never calls `console`; pass a logger to see these.
 * Events carry ids, counts and codes, never message content.
 */
export type LogEvent = {
  readonly level: 'debug' | 'info' | 'warn' | 'error';
  readonly event: string;
  readonly data?: Readonly<Record<string, string | number | boolean | null>>;
  readonly error?: unknown;
};

export type Logger = (event: LogEvent) => void;
