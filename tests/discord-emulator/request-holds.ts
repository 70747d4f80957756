import type { ChangeNotifier } from './notifier.js';

/** A request as seen before it is handled: method and path below `/api/v10` (URL-decoded). */
export interface PendingRequest {
  method: string;
  path: string;
}

/** Keeps matching REST requests unanswered until released (to test client-side timeouts). */
export interface RequestHold {
  /** Matching requests that arrived while the hold was active. */
  readonly held: number;
  /** Resolves once `count` matching requests are (or were) held. */
  waitUntilHeld(count?: number, timeoutMs?: number): Promise<void>;
  /** Answers the held requests and lets later ones through. */
  release(): void;
}

interface HoldState {
  readonly matches: (request: PendingRequest) => boolean;
  readonly released: Promise<void>;
  release(): void;
  held: number;
}

const DEFAULT_TIMEOUT_MS = 5_000;

export class RequestHolds {
  readonly #holds = new Set<HoldState>();
  readonly #notifier: ChangeNotifier;

  constructor(notifier: ChangeNotifier) {
    this.#notifier = notifier;
  }

  add(matches: (request: PendingRequest) => boolean): RequestHold {
    let release = (): void => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const state: HoldState = { matches, released, release, held: 0 };
    this.#holds.add(state);
    return {
      get held() {
        return state.held;
      },
      waitUntilHeld: (count = 1, timeoutMs = DEFAULT_TIMEOUT_MS) =>
        this.#notifier
          .waitFor(() => (state.held >= count ? true : undefined), timeoutMs, `${count} held request(s)`)
          .then(() => undefined),
      release: () => {
        this.#holds.delete(state);
        state.release();
      },
    };
  }

  /** Resolves once every active hold matching the request is released (immediately when none does). */
  async wait(request: PendingRequest): Promise<void> {
    const matching = [...this.#holds].filter((hold) => hold.matches(request));
    for (const hold of matching) hold.held++;
    if (matching.length > 0) this.#notifier.notify();
    await Promise.all(matching.map((hold) => hold.released));
  }

  releaseAll(): void {
    for (const hold of this.#holds) hold.release();
    this.#holds.clear();
  }
}
