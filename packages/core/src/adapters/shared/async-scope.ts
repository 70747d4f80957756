import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Serialises transaction scopes on one connection. Code running inside a scope (in its async
 * context) passes straight through; code outside waits until the active scope finishes, so work
 * from other callers never interleaves with an open transaction. Nested scopes join the outer one.
 */
export class ScopeGate<TScope extends object> {
  readonly #als = new AsyncLocalStorage<TScope>();
  #tail: Promise<void> = Promise.resolve();
  #active = 0;

  /** The scope of the caller's async context, if any. */
  current(): TScope | undefined {
    return this.#als.getStore();
  }

  /** Resolves when the caller may touch the connection (immediately when no foreign scope is open). */
  wait(): Promise<void> | undefined {
    if (this.#active === 0 || this.#als.getStore() !== undefined) return undefined;
    return this.#tail;
  }

  /**
   * Runs `body` in a new exclusive scope, or in the caller's scope when already inside one.
   * `begin`/`commit`/`rollback` bracket the outermost scope only.
   */
  async run<T>(
    makeScope: () => TScope,
    body: () => Promise<T>,
    hooks: { begin(scope: TScope): void; commit(scope: TScope): void; rollback(scope: TScope): void },
  ): Promise<T> {
    if (this.#als.getStore() !== undefined) return body();
    const previous = this.#tail;
    let release!: () => void;
    this.#tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.#active++;
    try {
      await previous;
      const scope = makeScope();
      hooks.begin(scope);
      let result: T;
      try {
        result = await this.#als.run(scope, body);
      } catch (error) {
        hooks.rollback(scope);
        throw error;
      }
      hooks.commit(scope);
      return result;
    } finally {
      this.#active--;
      release();
    }
  }
}
