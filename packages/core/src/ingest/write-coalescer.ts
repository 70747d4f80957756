/**
 * Merges additive writes per key: a write asked for while an earlier one of the same key is in
 * flight waits for it, and every amount asked for meanwhile goes out with it as one write. The
 * budget charges of one batch (the extraction reply, a repair turn, reconcile's model calls) then
 * cost two writes of the guild's budget documents at most, not one each in turn. Each caller's
 * promise settles with the write that carried its amount.
 */
export class WriteCoalescer {
  readonly #waiting = new Map<string, { amount: number; readonly done: Promise<void> }>();
  /** The last write of each key, settled either way (what the next one waits for). */
  readonly #last = new Map<string, Promise<void>>();

  add(key: string, amount: number, write: (amount: number) => Promise<void>): Promise<void> {
    const waiting = this.#waiting.get(key);
    if (waiting) {
      waiting.amount += amount;
      return waiting.done;
    }
    const before = this.#last.get(key);
    if (!before) return this.#track(key, write(amount));
    const start = (): Promise<void> => {
      this.#waiting.delete(key);
      return write(entry.amount);
    };
    const entry: { amount: number; readonly done: Promise<void> } = { amount, done: before.then(start) };
    this.#waiting.set(key, entry);
    return this.#track(key, entry.done);
  }

  #track(key: string, done: Promise<void>): Promise<void> {
    const settled = done.then(
      () => undefined,
      () => undefined,
    );
    this.#last.set(key, settled);
    void settled.then(() => {
      if (this.#last.get(key) === settled) this.#last.delete(key);
    });
    return done;
  }
}
