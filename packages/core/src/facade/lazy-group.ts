/** A group of async methods, callable before the memory has started. */
export type Lazy<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => Promise<R> : never;
};

/**
 * `names` when it lists every method of T, `never` otherwise: a method added to an API group but
 * not to its list is a compile error, not a silently missing method on `memory.<group>`.
 */
export type EveryMethod<T, L extends readonly (keyof T)[]> =
  Exclude<keyof T, L[number]> extends never ? L : never;

/** Delegates each method of a group to the started instance (starting it on first use). */
export function lazyGroup<T extends object, const L extends readonly (keyof T)[]>(
  get: () => Promise<T>,
  names: EveryMethod<T, L>,
): Lazy<T> {
  const out: Record<string, unknown> = {};
  for (const name of names) {
    out[name as string] = async (...args: unknown[]) =>
      ((await get()) as Record<string, (...a: unknown[]) => unknown>)[name as string]?.(...args);
  }
  return out as Lazy<T>;
}
