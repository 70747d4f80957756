import { MemoryError } from '../errors/index.js';
import type { BatchKey, StoredMessage } from '../model/message.js';
import type { IngestDeps } from './deps.js';

/**
 * Records a failed attempt on a key's claimed messages (retry with exponential backoff, or a dead
 * letter after `workers.maxAttempts`) and emits `ExtractionFailed`. Never throws: a store that
 * cannot record the failure is logged and the lease expiry returns the messages later.
 */
export async function recordBatchFailure(
  deps: IngestDeps,
  owner: string,
  failed: { readonly key: BatchKey; readonly messages: readonly StoredMessage[] },
  error: unknown,
): Promise<void> {
  const { store, clock, config, events, logger } = deps;
  const { key, messages } = failed;
  const code = MemoryError.is(error) ? error.code : 'INTERNAL';
  logger?.({
    level: 'warn',
    event: 'ingest.batch_failed',
    data: { guildId: key.guildId, code, messages: messages.length },
    error,
  });
  try {
    const r = await store.queue.fail(
      key.guildId,
      messages.map((m) => m.messageId),
      {
        owner,
        now: clock.now(),
        maxAttempts: config.workers.maxAttempts,
        baseBackoffMs: config.workers.backoffBaseSeconds * 1000,
      },
    );
    events.emit('ExtractionFailed', {
      guildId: key.guildId,
      subjectKey: key.subjectKey,
      attempt: r.attempts,
      deadLettered: r.dead > 0,
      errorCode: code,
    });
  } catch (failError) {
    logger?.({
      level: 'error',
      event: 'ingest.fail_record_failed',
      data: { guildId: key.guildId },
      error: failError,
    });
  }
}
