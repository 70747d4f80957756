import type { MemoryStore } from '@permafrost/core';
import { interceptStore } from '@permafrost/core/testing';

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
  const store = interceptStore(inner, (role, method, call) => {
    const t = performance.now();
    const out = call();
    const done = () => {
      const key = `${role}.${method}`;
      const e = calls.get(key) ?? { n: 0, ms: 0 };
      e.n++;
      e.ms += performance.now() - t;
      calls.set(key, e);
    };
    if (out instanceof Promise) return out.finally(done);
    done();
    return out;
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
