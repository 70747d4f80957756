import {
  ErrorCode,
  type Memory,
  MemoryError,
  type MessageEventInput,
  type ObserveReceipt,
} from '@permafrost/core';
import type { Message } from 'discord.js';
import { toMessageEvent } from '../message-event.js';
import { shouldObserve } from '../message-filter.js';
import type { DiscordMemoryOptions } from '../options.js';
import { sleep } from './request-pacer.js';

/** Counters of one channel's run, updated in place. */
export interface MutableCounts {
  fetched: number;
  stored: number;
  duplicates: number;
  skipped: number;
}

export const emptyCounts = (): MutableCounts => ({ fetched: 0, stored: 0, duplicates: 0, skipped: 0 });

const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 15_000;

/**
 * Stores one page of history, oldest message first, through `memory.observeMany(…, { history })`
 * with the live wiring's filters and translation (`shouldObserve`, `toMessageEvent`): bots,
 * webhooks, system messages and ignored roles are skipped before the memory sees them; opted-out
 * members, empty text and duplicates are the memory's own decisions. Messages the memory turns
 * away for now (its guild queue is full while extraction catches up) are retried with backoff
 * until `maxStallMs` passes.
 */
export class PageStore {
  readonly #memory: Memory;
  readonly #filters: DiscordMemoryOptions;
  readonly #signal: AbortSignal | undefined;
  readonly #maxStallMs: number;

  constructor(deps: {
    readonly memory: Memory;
    readonly filters: DiscordMemoryOptions;
    readonly signal: AbortSignal | undefined;
    readonly maxStallMs: number;
  }) {
    this.#memory = deps.memory;
    this.#filters = deps.filters;
    this.#signal = deps.signal;
    this.#maxStallMs = deps.maxStallMs;
  }

  /** `ok` once every message is stored or decided; the page then counts as done. */
  async store(messages: readonly Message[], counts: MutableCounts): Promise<'ok' | 'aborted' | 'stalled'> {
    counts.fetched += messages.length;
    let pending: MessageEventInput[] = [];
    for (const message of messages) {
      if (message.author.bot || message.webhookId !== null || !shouldObserve(message, this.#filters))
        counts.skipped++;
      else pending.push(toMessageEvent(message));
    }
    let waitMs = FIRST_RETRY_MS;
    const started = Date.now();
    while (pending.length > 0) {
      const receipts = await this.#memory.observeMany(pending, { history: true });
      const retry: MessageEventInput[] = [];
      receipts.forEach((receipt, i) => {
        if (receipt.status === 'rejected') retry.push(pending[i] as MessageEventInput);
        else tally(receipt, counts);
      });
      if (retry.length === 0) break;
      if (receipts.some((r) => r.reason === 'closed'))
        throw new MemoryError(ErrorCode.CLOSED, 'the memory was closed during the history import');
      if (Date.now() - started >= this.#maxStallMs) return 'stalled';
      if (!(await sleep(waitMs, this.#signal))) return 'aborted';
      waitMs = Math.min(waitMs * 2, MAX_RETRY_MS);
      pending = retry;
    }
    return 'ok';
  }
}

function tally(receipt: ObserveReceipt, counts: MutableCounts): void {
  if (receipt.status === 'accepted') counts.stored++;
  else if (receipt.reason === 'duplicate') counts.duplicates++;
  else counts.skipped++;
}
