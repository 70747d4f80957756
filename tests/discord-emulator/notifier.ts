/**
 * Race-free waiting on emulator state: every state change calls `notify()`, and each waiter
 * re-evaluates its probe. A probe that already succeeds resolves immediately.
 */
export class EmulatorTimeoutError extends Error {
  override readonly name = 'EmulatorTimeoutError';
}

interface Waiter {
  probe: () => void;
  cancel: (reason: Error) => void;
}

export class ChangeNotifier {
  readonly #waiters = new Set<Waiter>();

  notify(): void {
    for (const waiter of [...this.#waiters]) waiter.probe();
  }

  /** Resolves with the first defined value returned by `probe`; rejects after `timeoutMs`. */
  waitFor<T>(probe: () => T | undefined, timeoutMs: number, description: string): Promise<T> {
    const initial = probe();
    if (initial !== undefined) return Promise.resolve(initial);
    return new Promise<T>((resolve, reject) => {
      const settle = (): void => {
        this.#waiters.delete(waiter);
        clearTimeout(timer);
      };
      const waiter: Waiter = {
        probe: () => {
          const value = probe();
          if (value === undefined) return;
          settle();
          resolve(value);
        },
        cancel: (reason) => {
          settle();
          reject(reason);
        },
      };
      const timer = setTimeout(
        () =>
          waiter.cancel(
            new EmulatorTimeoutError(`Timed out after ${timeoutMs} ms waiting for ${description}`),
          ),
        timeoutMs,
      );
      this.#waiters.add(waiter);
    });
  }

  /** Rejects every pending waiter (used on close). */
  cancelAll(reason: Error): void {
    for (const waiter of [...this.#waiters]) waiter.cancel(reason);
  }
}
