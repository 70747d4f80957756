/**
 * Writes sent without the caller waiting for their answer (nothing it does next depends on it);
 * one set per store, whose `close()` waits for them (`settled`). A failure is handed to `failed`
 * (logged by the caller), never thrown.
 */
export class BackgroundWrites {
  readonly #inFlight = new Set<Promise<void>>();

  /** Tracks `write` until it is answered; `then` runs once it was, failed or not. */
  add(write: Promise<unknown>, failed: (error: unknown) => void, then?: () => void): void {
    const p: Promise<void> = write
      .then(() => undefined, failed)
      .finally(() => {
        this.#inFlight.delete(p);
        then?.();
      });
    this.#inFlight.add(p);
  }

  /** Resolves once every write added so far has been answered. */
  async settled(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all([...this.#inFlight]);
  }
}
