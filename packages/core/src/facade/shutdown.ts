import type { Started } from '../composition/compose.js';

/**
 * The work of `memory.close()` once the memory has started (or began starting): stop the workers,
 * drain due batches until the deadline when asked, abort model calls still in flight at the
 * deadline (at once without drain; their batches stay queued), then close the embedder and the store.
 */
export async function shutDown(
  starting: Promise<Started>,
  options: {
    readonly drain: boolean;
    readonly timeoutMs: number;
    readonly lifetime: AbortController;
    readonly loopStopped: () => void;
  },
): Promise<void> {
  const { drain, timeoutMs, lifetime } = options;
  const deadline = Date.now() + timeoutMs;
  const abortAt = setTimeout(() => lifetime.abort(), drain ? timeoutMs : 0);
  abortAt.unref?.();
  try {
    const started = await starting.catch(() => null);
    if (!started) return;
    await started.loop?.stop();
    options.loopStopped();
    await started.engine.idle();
    if (drain) {
      const force = !started.rt.store.capabilities.durable;
      try {
        while (Date.now() < deadline && !lifetime.signal.aborted) {
          if ((await started.engine.runPending({ limit: 64, ...(force ? { force } : {}) })) === 0) break;
        }
      } catch (error) {
        started.rt.logger?.({ level: 'warn', event: 'memory.drain_failed', error });
      }
    }
    lifetime.abort();
    await started.engine.idle();
    await started.rt.embedder.close().catch(() => undefined);
    await started.rt.store.close();
  } finally {
    clearTimeout(abortAt);
    lifetime.abort();
  }
}
