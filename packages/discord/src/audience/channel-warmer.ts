const RETRY_AFTER_MS = 60_000;
const MAX_TRACKED = 10_000;

/**
 * Fetches channels a decision needed but the cache lacked (typically archived threads, which Discord
 * does not send at login), in the background, so a later read can decide them. Each channel is tried
 * at most once a minute; failures are ignored (the decision stays a deny).
 */
export class ChannelWarmer {
  readonly #fetch: (channelId: string) => Promise<unknown>;
  readonly #attempts = new Map<string, number>();

  constructor(fetch: (channelId: string) => Promise<unknown>) {
    this.#fetch = fetch;
  }

  warm(channelId: string): void {
    const now = Date.now();
    const last = this.#attempts.get(channelId);
    if (last !== undefined && now - last < RETRY_AFTER_MS) return;
    if (this.#attempts.size >= MAX_TRACKED) this.#attempts.clear();
    this.#attempts.set(channelId, now);
    Promise.resolve()
      .then(() => this.#fetch(channelId))
      .catch(() => {
        // an unknown or unreachable channel stays denied
      });
  }

  clear(): void {
    this.#attempts.clear();
  }
}
