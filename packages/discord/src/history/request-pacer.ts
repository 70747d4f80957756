/**
 * Spaces requests at least `1000 / maxPerSecond` ms apart (a ceiling on top of discord.js's own
 * rate-limit queue) and counts them. Waiting ends early when the signal aborts.
 */
export class RequestPacer {
  readonly #intervalMs: number;
  readonly #signal: AbortSignal | undefined;
  #next = 0;
  #count = 0;

  constructor(maxPerSecond: number, signal?: AbortSignal) {
    this.#intervalMs = Number.isFinite(maxPerSecond) ? 1000 / maxPerSecond : 0;
    this.#signal = signal;
  }

  /** Requests let through so far. */
  get count(): number {
    return this.#count;
  }

  /** Waits for the next request's turn; false when the signal aborted (send nothing then). */
  async turn(): Promise<boolean> {
    const now = Date.now();
    const at = Math.max(now, this.#next);
    this.#next = at + this.#intervalMs;
    if (at > now && !(await sleep(at - now, this.#signal))) return false;
    if (this.#signal?.aborted) return false;
    this.#count++;
    return true;
  }
}

/** Resolves true after `ms`, or false as soon as the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
