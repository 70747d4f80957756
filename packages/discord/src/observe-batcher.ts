import type { Memory, MessageEventInput, ObserveReceipt } from '@permafrost/core';

/**
 * Coalesces message events into `memory.observeMany` calls: an event goes out at once when nothing
 * is being written, and events that arrive while a write is in flight wait for the next call (at
 * most `maxBatch` each). A quiet channel pays no added latency; a burst costs one store transaction
 * per call instead of one per message. Order is kept.
 */
export class ObserveBatcher {
  readonly #memory: Pick<Memory, 'observeMany'>;
  readonly #maxBatch: number;
  readonly #onReceipts: (receipts: readonly ObserveReceipt[]) => void;
  #waiting: MessageEventInput[] = [];
  #running: Promise<void> | null = null;

  constructor(
    memory: Pick<Memory, 'observeMany'>,
    maxBatch: number,
    onReceipts: (receipts: readonly ObserveReceipt[]) => void,
  ) {
    this.#memory = memory;
    this.#maxBatch = maxBatch;
    this.#onReceipts = onReceipts;
  }

  /** Queues an event; resolves once the call that carried it has finished. */
  add(event: MessageEventInput): Promise<void> {
    this.#waiting.push(event);
    this.#running ??= this.#drain().finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  /** Resolves once every event queued so far has been written (at once when nothing is in flight). */
  settled(): Promise<void> {
    return this.#running ?? Promise.resolve();
  }

  async #drain(): Promise<void> {
    while (this.#waiting.length > 0) {
      const batch = this.#waiting.splice(0, this.#maxBatch);
      this.#onReceipts(await this.#memory.observeMany(batch));
    }
  }
}
