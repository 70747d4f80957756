import type { MemoryStore } from '@permafrost/core';

export interface StoreProfile {
  /** "role.method" → calls and total ms. */
  readonly calls: Map<string, { n: number; ms: number }>;
  readonly store: MemoryStore;
}

/**
 * Wraps every async method of a store's roles (facts, vectors, graph, …) to count calls and time
 * them. Overlapping calls (channels run concurrently) each count their own wall time, so shares
 * are of summed store time, not of the request.
 */
export function profileStore(inner: MemoryStore): StoreProfile {
  const calls = new Map<string, { n: number; ms: number }>();
  const wrapRole = (role: string, obj: object) =>
    new Proxy(obj, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          const t = performance.now();
          const out = (value as (...a: unknown[]) => unknown).apply(target, args);
          const done = () => {
            const key = `${role}.${String(prop)}`;
            const e = calls.get(key) ?? { n: 0, ms: 0 };
            e.n++;
            e.ms += performance.now() - t;
            calls.set(key, e);
          };
          if (out instanceof Promise) return out.finally(done);
          done();
          return out;
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
  return { calls, store };
}

/** Calls per request and mean ms per call, sorted by total time. */
export function profileTable(p: StoreProfile, requests: number) {
  const total = [...p.calls.values()].reduce((s, e) => s + e.ms, 0);
  return [...p.calls.entries()]
    .sort((a, b) => b[1].ms - a[1].ms)
    .map(([method, e]) => ({
      method,
      callsPerRequest: Math.round((e.n / requests) * 100) / 100,
      meanMs: Math.round((e.ms / e.n) * 1000) / 1000,
      msPerRequest: Math.round((e.ms / requests) * 1000) / 1000,
      shareOfStoreTime: Math.round((e.ms / total) * 1000) / 1000,
    }));
}
