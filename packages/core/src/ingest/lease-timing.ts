import type { MemoryConfig } from '../config/schema.js';

/** A lease not renewed for this many heartbeats belongs to a dead owner. */
export const MISSED_HEARTBEATS = 3;

/** How often a held lease is renewed: every `batching.heartbeatSeconds`, at most every lease/3. */
export function heartbeatMs(batching: MemoryConfig['batching']): number {
  const leaseMs = batching.leaseSeconds * 1000;
  return Math.max(1000, Math.min(leaseMs / 3, batching.heartbeatSeconds * 1000));
}

/**
 * The `now` to release leases against: a live owner renews every heartbeat, so its lease always
 * runs until at least `renewal + leaseMs`; one whose last renewal is older than a few heartbeats
 * is a dead process's, and is released without waiting for the whole lease.
 */
export function reclaimCutoff(now: Date, batching: MemoryConfig['batching']): Date {
  const leaseMs = batching.leaseSeconds * 1000;
  const staleMs = Math.min(leaseMs, MISSED_HEARTBEATS * heartbeatMs(batching));
  return new Date(now.getTime() + leaseMs - staleMs);
}
