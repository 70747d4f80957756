import type { MemoryStore } from '../ports/memory-store.js';

/**
 * Runs store calls that do not depend on each other, inside one transaction scope. Where the
 * store's transactions are `ordered` (no session: every call is its own round trip) they go out
 * together; where they are `atomic` they run one after another, since database sessions do not
 * take parallel operations inside a transaction (MongoDB's drivers leave it undefined) and an
 * in-process database gains nothing from overlap.
 */
export async function independent<T extends readonly unknown[]>(
  store: Pick<MemoryStore, 'capabilities'>,
  calls: { readonly [K in keyof T]: () => Promise<T[K]> },
): Promise<T> {
  if (store.capabilities.transactions !== 'atomic')
    return (await Promise.all(calls.map((call) => call()))) as unknown as T;
  const out: unknown[] = [];
  for (const call of calls) out.push(await call());
  return out as unknown as T;
}

/** `independent` over a list: the same call for every item, results in item order. */
export function independentEach<I, R>(
  store: Pick<MemoryStore, 'capabilities'>,
  items: readonly I[],
  call: (item: I) => Promise<R>,
): Promise<R[]> {
  return independent<R[]>(
    store,
    items.map((item) => () => call(item)),
  );
}
