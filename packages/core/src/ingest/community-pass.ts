import type { StoredMessage } from '../model/message.js';
import { SERVER_KEY } from '../model/message.js';
import { BatchCompletion } from './batch-completion.js';
import { type BatchReport, extractBatch } from './batch-processor.js';
import type { IngestDeps } from './deps.js';
import { ErasureFence } from './erasure-fence.js';
import { withErasuresReapplied } from './fence-reapply.js';
import { heartbeatMs } from './lease-timing.js';

const WINDOW_CURSOR = 'server_window';

function parseCursor(cursor: string | null): { createdAt: Date; messageId: string } | null {
  if (!cursor) return null;
  const split = cursor.indexOf('|');
  if (split < 0) return null;
  const createdAt = new Date(cursor.slice(0, split));
  return Number.isNaN(createdAt.getTime()) ? null : { createdAt, messageId: cursor.slice(split + 1) };
}

/**
 * The community pass: reads the guild's newest messages past a watermark (any author) and keeps
 * only server facts. Runs when enough new messages arrived (or always when forced); failures
 * leave the watermark in place for a later pass. The watermark moves in the commit transaction
 * of the window's facts.
 */
export async function runCommunityPass(
  deps: IngestDeps,
  owner: string,
  guildId: string,
  force: boolean,
): Promise<BatchReport | null> {
  const { store, clock, config, events, logger } = deps;
  const key = { guildId, subjectKey: SERVER_KEY };
  const leaseMs = config.batching.leaseSeconds * 1000;
  if (!(await store.queue.acquireLease({ key, owner, now: clock.now(), leaseMs }))) return null;
  // Renewed like batch leases, so a live pass is never taken for a dead owner's.
  const heartbeat = setInterval(() => {
    store.queue.acquireLease({ key, owner, now: clock.now(), leaseMs }).catch(() => false);
  }, heartbeatMs(config.batching));
  heartbeat.unref?.();
  try {
    const fence = await ErasureFence.open(store, guildId);
    const after = parseCursor(await store.cursors.getCursor(guildId, WINDOW_CURSOR));
    const window = config.batching.serverWindowMessages;
    const messages = await store.queue.recent(guildId, { limit: window, ...(after ? { after } : {}) });
    const minimum = force ? 1 : Math.max(config.batching.batchSizeMessages, Math.ceil(window / 2));
    if (messages.length < minimum) return null;
    const newest = messages[messages.length - 1] as StoredMessage;
    const completion = new BatchCompletion({
      // The watermark moves only once the pass's writes have landed (nothing to prepare for it).
      finish: async (_erased, after) => {
        await after;
        await store.cursors.setCursor(
          guildId,
          WINDOW_CURSOR,
          `${newest.createdAt.toISOString()}|${newest.messageId}`,
        );
      },
    });
    const result = await withErasuresReapplied(deps, fence, async (reapply) => {
      const report = await extractBatch(deps, guildId, SERVER_KEY, messages, 'community', {
        completion,
        fence,
        reapply,
      });
      await completion.settle(store);
      return report;
    });
    events.emit('BatchCompleted', result);
    return result;
  } catch (error) {
    logger?.({ level: 'warn', event: 'ingest.community_failed', data: { guildId }, error });
    return null;
  } finally {
    clearInterval(heartbeat);
    await store.queue.releaseLease(key, owner).catch(() => undefined);
  }
}
