import type { MemoryStore } from '../../src/ports/memory-store.js';

/**
 * A store whose every port call answers after a macrotask, as a remote store answers after a
 * round trip, and which counts the longest chain of calls each started after the previous one
 * answered (`depth`): calls issued together overlap, as they do over a network. `calls` lists the
 * port methods of each wave ("role.method").
 */
export function roundTripStore(inner: MemoryStore) {
  let finished = 0;
  let depth = 0;
  const waves: string[][] = [];
  const wrapRole = (role: string, obj: object) =>
    new Proxy(obj, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          const out = (value as (...a: unknown[]) => unknown).apply(target, args);
          if (!(out instanceof Promise)) return out;
          const d = finished + 1;
          depth = Math.max(depth, d);
          const wave = waves[d - 1] ?? [];
          waves[d - 1] = wave;
          wave.push(`${role}.${String(prop)}`);
          return out.then(
            (v) =>
              new Promise((resolve) =>
                setImmediate(() => {
                  finished = Math.max(finished, d);
                  resolve(v);
                }),
              ),
          );
        };
      },
    });
  const store = new Proxy(inner, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value === 'function') return (value as (...a: unknown[]) => unknown).bind(target);
      if (value !== null && typeof value === 'object' && prop !== 'capabilities')
        return wrapRole(String(prop), value);
      return value;
    },
  });
  return {
    store: store as MemoryStore,
    /** Starts counting afresh. */
    reset(): void {
      finished = 0;
      depth = 0;
      waves.length = 0;
    },
    get depth(): number {
      return depth;
    },
    get waves(): readonly (readonly string[])[] {
      return waves;
    },
  };
}
