/** Discord accepts edits of an interaction's messages for 15 minutes; stop a little before. */
const TOKEN_LIFETIME_MS = 14 * 60_000;

/**
 * The self-editing progress message of `/memory import`: at most one edit per `intervalMs` (edits
 * in between are dropped, the next update after the interval shows the latest text), never two
 * edits at once, and none after the interaction token expires.
 */
export class ProgressMessage {
  readonly #edit: (content: string) => Promise<unknown>;
  readonly #intervalMs: number;
  readonly #expiresAt: number;
  #lastEditAt = Number.NEGATIVE_INFINITY;
  #inFlight: Promise<unknown> | null = null;

  constructor(edit: (content: string) => Promise<unknown>, intervalMs: number, startedAt = Date.now()) {
    this.#edit = edit;
    this.#intervalMs = intervalMs;
    this.#expiresAt = startedAt + TOKEN_LIFETIME_MS;
  }

  /** Whether the message can still be edited (the interaction token has not expired). */
  get editable(): boolean {
    return Date.now() < this.#expiresAt;
  }

  /** Shows `content` if the last edit is old enough and none is in flight; otherwise drops it. */
  update(content: string): void {
    if (this.#inFlight || !this.editable || Date.now() - this.#lastEditAt < this.#intervalMs) return;
    this.#send(content);
  }

  /** Shows the final text once the interval since the last edit has passed; false if it expired. */
  async finish(content: string): Promise<boolean> {
    await this.#inFlight;
    const wait = this.#lastEditAt + this.#intervalMs - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (!this.editable) return false;
    this.#send(content);
    await this.#inFlight;
    return true;
  }

  #send(content: string): void {
    this.#lastEditAt = Date.now();
    this.#inFlight = this.#edit(content)
      .catch(() => undefined) // a failed progress edit must not end the import
      .finally(() => {
        this.#inFlight = null;
      });
  }
}
