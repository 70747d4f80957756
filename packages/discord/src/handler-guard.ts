import { type Logger, MemoryError } from '@permafrost/core';

/**
 * Runs event handlers so that a failure never reaches the discord.js client: errors are logged
 * (code and handler name only) and swallowed. Tracks in-flight work so shutdown can wait for it.
 */
export class HandlerGuard {
  readonly #logger: Logger | undefined;
  readonly #inFlight = new Set<Promise<void>>();

  constructor(logger: Logger | undefined) {
    this.#logger = logger;
  }

  run(handler: string, work: () => Promise<void>): void {
    const task: Promise<void> = Promise.resolve()
      .then(work)
      .catch((error: unknown) => {
        this.log(
          'error',
          'discord.handler_failed',
          {
            handler,
            code: MemoryError.is(error) ? error.code : errorCode(error),
          },
          error,
        );
      })
      .finally(() => this.#inFlight.delete(task));
    this.#inFlight.add(task);
  }

  log(
    level: 'debug' | 'info' | 'warn' | 'error',
    event: string,
    data: Record<string, string | number | boolean | null>,
    error?: unknown,
  ): void {
    if (!this.#logger) return;
    try {
      this.#logger({ level, event, data, ...(error !== undefined ? { error } : {}) });
    } catch {
      // a failing logger must not break the bot either
    }
  }

  /** Resolves once every handler started so far has finished. */
  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }
}

function errorCode(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = (error as { code: unknown }).code;
    if (typeof code === 'string' || typeof code === 'number') return String(code);
  }
  return 'INTERNAL';
}
