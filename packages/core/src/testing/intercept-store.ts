import type { MemoryStore } from '../ports/memory-store.js';

/**
 * Sees one call of a role method (`facts.get`, `vectors.search`, …): `call` makes the real call
 * and returns what it returned; what `around` returns is what the caller gets.
 */
export type AroundRoleCall = (role: string, method: string, call: () => unknown) => unknown;

/**
 * A store whose role methods go through `around`. Everything else (`capabilities`, `name`,
 * `transaction`, `setup`, …) is the store's own, methods bound to it.
 */
export function interceptStore(inner: MemoryStore, around: AroundRoleCall): MemoryStore {
  const wrapRole = (role: string, obj: object) =>
    new Proxy(obj, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) =>
          around(role, String(prop), () => (value as (...a: unknown[]) => unknown).apply(target, args));
      },
    });
  return new Proxy(inner, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value === 'function') return (value as (...a: unknown[]) => unknown).bind(target);
      if (value !== null && typeof value === 'object' && prop !== 'capabilities')
        return wrapRole(String(prop), value);
      return value;
    },
  });
}
