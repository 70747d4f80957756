import type { MemoryConfig } from '../config/schema.js';
import { MemoryError } from '../errors/index.js';
import { normalizeAlias } from '../identity/aliases.js';
import { AliasSource, IgnoreReason, ObserveStatus, RejectReason } from '../model/enums.js';
import { type MessageEvent, messageEventSchema, type StoredMessage } from '../model/message.js';
import type { Clock } from '../ports/clock.js';
import type { EnqueueOutcome } from '../ports/ingest-queue.js';
import type { Logger } from '../ports/logger.js';
import type { MemoryStore } from '../ports/memory-store.js';
import { parseInput } from '../validation/index.js';
import type { MemberRate } from './member-rate.js';
import { type ObserveReceipt, receipt, rejectedReceipt } from './observe-receipts.js';
import { prepareRow } from './observe-row.js';

export interface ObserveDeps {
  readonly config: MemoryConfig;
  readonly clock: Clock;
  readonly isBot: (userId: string) => boolean;
  readonly logger?: Logger;
  /** Called for every stored message (hot conversation cache, metrics). */
  readonly onStored?: (message: StoredMessage) => void;
  /**
   * An edit of a stored message: re-stores it for extraction and retires what only the old text
   * supported. False when nothing changed. Without it, the stored content is just replaced.
   */
  readonly reviseMessage?: (row: StoredMessage) => Promise<boolean>;
  /**
   * The stored message is forgotten: an edit that left nothing to keep (now empty or ignored), or a
   * row a queue stored for an opted-out member without waiting for the consent answer.
   */
  readonly forgetEdited?: (event: MessageEvent) => Promise<void>;
  /** Per-member admission (token bucket); absent: no per-member limit. */
  readonly rate?: MemberRate;
  /** Binds a name to a member (identity service: weights, validity, entity twins). */
  readonly registerAlias: (input: {
    guildId: string;
    userId: string;
    alias: string;
    source: AliasSource;
  }) => Promise<unknown>;
}

/** An event of an `observeMany` call waiting for the batch write, with its receipt index. */
interface Pending {
  readonly index: number;
  readonly event: MessageEvent;
  readonly row: StoredMessage;
}

/** Validates a message event; the only error observe raises (SCHEMA_INVALID). */
export function parseMessageEvent(input: unknown): MessageEvent {
  return parseInput(messageEventSchema, input, 'observe');
}

/**
 * The observe path: O(1), no model, no embedding. Decides ignore/reject from in-process state and
 * one consent read, stores the message as a queue row, and registers the author's display name.
 */
export class Observer {
  readonly #deps: ObserveDeps;
  readonly #patterns: readonly RegExp[];
  /** Last alias registered per (guild, user), so unchanged names cost no write. */
  readonly #knownNames = new Map<string, string>();

  constructor(deps: ObserveDeps) {
    this.#deps = deps;
    this.#patterns = deps.config.observe.ignorePatterns.map((p) => new RegExp(p, 'iu'));
  }

  /**
   * Observes one validated event (see `parseMessageEvent`). The consent read and the write start
   * together: the store holds the row back until the read answers (`EnqueueOptions.admitted`).
   */
  async observe(store: MemoryStore, event: MessageEvent): Promise<ObserveReceipt> {
    if (this.#fromBot(event)) return receipt(event.messageId, ObserveStatus.IGNORED, IgnoreReason.BOT_AUTHOR);
    let optedOut: Promise<boolean>;
    try {
      optedOut = store.consent.isOptedOut(event.guildId, event.authorId);
    } catch (error) {
      return this.#rejected(event, error);
    }
    // Awaited on every path below; this only keeps a rejection from being reported as unhandled.
    optedOut.catch(() => undefined);
    return this.#admit(store, event, optedOut);
  }

  /**
   * Observes validated events in order, one receipt each, with the same decisions as `observe`:
   * one consent read per guild, and every new row (with its authors' names) written in one store
   * transaction. An edit is applied on its own, after the rows before it. With `history` (past
   * messages imported in bulk) the members' rate is neither checked nor spent.
   */
  async observeMany(
    store: MemoryStore,
    events: readonly MessageEvent[],
    options: { history?: boolean } = {},
  ): Promise<ObserveReceipt[]> {
    const receipts: ObserveReceipt[] = new Array(events.length);
    const optedOut = new Map<string, ReadonlySet<string>>();
    try {
      for (const guildId of new Set(events.map((e) => e.guildId)))
        optedOut.set(guildId, new Set(await store.consent.optedOutUsers(guildId)));
    } catch (error) {
      return events.map((e) => this.#rejected(e, error));
    }
    let batch: Pending[] = [];
    for (const [index, event] of events.entries()) {
      if (this.#fromBot(event))
        receipts[index] = receipt(event.messageId, ObserveStatus.IGNORED, IgnoreReason.BOT_AUTHOR);
      else if (optedOut.get(event.guildId)?.has(event.authorId))
        receipts[index] = receipt(event.messageId, ObserveStatus.IGNORED, IgnoreReason.OPTED_OUT);
      else if (event.edited) {
        await this.#writeBatch(store, batch, receipts);
        batch = [];
        receipts[index] = await this.#admit(store, event);
      } else {
        const prepared = this.#admissible(event, options.history ?? false);
        if ('kind' in prepared) batch.push({ index, event, row: prepared });
        else receipts[index] = prepared;
      }
    }
    await this.#writeBatch(store, batch, receipts);
    return receipts;
  }

  #fromBot(event: MessageEvent): boolean {
    return event.authorIsBot || this.#deps.isBot(event.authorId);
  }

  /** `prepareRow` plus the member's rate (edits and imported history exempt): a receipt, or the row. */
  #admissible(event: MessageEvent, history = false): ObserveReceipt | StoredMessage {
    const prepared = prepareRow(event, this.#deps.config, this.#patterns, this.#deps.clock);
    if (!('kind' in prepared)) return prepared;
    // One member's flood spends that member's share only: it never takes another member's room.
    // Imported history is no flood: it must not spend the share the member's live messages need.
    const { rate, clock } = this.#deps;
    if (!event.edited && !history && rate && !rate.take(prepared.guildId, prepared.authorId, clock.now()))
      return receipt(prepared.messageId, ObserveStatus.REJECTED, RejectReason.MEMBER_OVER_RATE);
    return prepared;
  }

  /** Rows of `batch` in one transaction (names included); receipts written at their indexes. */
  async #writeBatch(
    store: MemoryStore,
    batch: readonly Pending[],
    receipts: ObserveReceipt[],
  ): Promise<void> {
    if (batch.length === 0) return;
    let outcomes: readonly EnqueueOutcome[];
    try {
      outcomes = await store.transaction(async () => {
        const written = await store.queue.enqueueMany(
          batch.map((p) => p.row),
          this.#deps.config.observe.maxQueueDepthPerGuild,
        );
        for (const [i, p] of batch.entries())
          if (written[i] === 'accepted') await this.#registerName(p.event);
        return written;
      });
    } catch (error) {
      for (const p of batch) receipts[p.index] = this.#rejected(p.event, error);
      return;
    }
    for (const [i, p] of batch.entries()) {
      const outcome = outcomes[i];
      if (outcome === 'accepted') {
        this.#deps.onStored?.(p.row);
        receipts[p.index] = receipt(p.row.messageId, ObserveStatus.ACCEPTED);
      } else if (outcome === 'duplicate') {
        await this.#registerName(p.event).catch((error: unknown) =>
          this.#deps.logger?.({ level: 'warn', event: 'observe.alias_failed', error }),
        );
        receipts[p.index] = receipt(p.row.messageId, ObserveStatus.IGNORED, IgnoreReason.DUPLICATE);
      } else
        receipts[p.index] = receipt(
          p.row.messageId,
          ObserveStatus.REJECTED,
          RejectReason.QUEUE_OVER_CAPACITY,
        );
    }
  }

  /**
   * After the bot check: content decision, rate, and the write (or an edit's revision). With
   * `optedOut` (the author's consent read, still pending) no decision is returned before it
   * answers, and an opted-out author's message is ignored whatever else was decided.
   */
  async #admit(
    store: MemoryStore,
    event: MessageEvent,
    optedOut?: Promise<boolean>,
  ): Promise<ObserveReceipt> {
    const prepared = this.#admissible(event);
    if (!('kind' in prepared)) {
      try {
        if (optedOut && (await optedOut))
          return receipt(event.messageId, ObserveStatus.IGNORED, IgnoreReason.OPTED_OUT);
      } catch (error) {
        return this.#rejected(event, error);
      }
      // The old text must not outlive an edit that made the message one we would not store.
      if (event.edited) await this.#forget(event);
      return prepared;
    }
    const row = prepared;
    try {
      const admitted = optedOut?.then((out) => !out);
      // A queue may answer without waiting for it (a full guild, a failed read of its own): its
      // rejection is then seen through `optedOut` below, never as an unhandled one.
      admitted?.catch(() => undefined);
      const outcome = await store.queue.enqueue(
        row,
        this.#deps.config.observe.maxQueueDepthPerGuild,
        admitted ? { admitted } : {},
      );
      // The answer has arrived by now (the queue waited for it, or did not need it): it wins.
      if (outcome === 'withheld' || (optedOut && (await optedOut))) {
        // A queue that stored the row without waiting broke its contract: the row must not stay.
        if (outcome === 'accepted') await this.#forget(event);
        return receipt(row.messageId, ObserveStatus.IGNORED, IgnoreReason.OPTED_OUT);
      }
      if (outcome === 'duplicate') {
        // The row may come from a process that died before registering the author's name (a
        // redelivery after a crash): register it now, once per process (cached), best effort.
        await this.#registerName(event).catch((error: unknown) =>
          this.#deps.logger?.({ level: 'warn', event: 'observe.alias_failed', error }),
        );
        // An edit of a message already stored updates its content (pending rows are extracted with it).
        if (!event.edited) return receipt(row.messageId, ObserveStatus.IGNORED, IgnoreReason.DUPLICATE);
        const updated = this.#deps.reviseMessage
          ? await this.#deps.reviseMessage(row)
          : await store.queue.markEdited(row.guildId, row.messageId, row.content, row.contentTruncated);
        if (!updated) return receipt(row.messageId, ObserveStatus.IGNORED, IgnoreReason.DUPLICATE);
        this.#deps.onStored?.(row);
        return receipt(row.messageId, ObserveStatus.ACCEPTED);
      }
      if (outcome === 'over_capacity')
        return receipt(row.messageId, ObserveStatus.REJECTED, RejectReason.QUEUE_OVER_CAPACITY);
      await this.#registerName(event);
      this.#deps.onStored?.(row);
      return receipt(row.messageId, ObserveStatus.ACCEPTED);
    } catch (error) {
      return this.#rejected(event, error);
    }
  }

  /** Forgets the stored message of `event` (best effort: a failure is logged). */
  async #forget(event: MessageEvent): Promise<void> {
    await this.#deps
      .forgetEdited?.(event)
      .catch((error: unknown) =>
        this.#deps.logger?.({ level: 'warn', event: 'observe.forget_edited_failed', error }),
      );
  }

  #rejected(event: MessageEvent, error: unknown): ObserveReceipt {
    this.#deps.logger?.({
      level: 'warn',
      event: 'observe.store_failed',
      data: { guildId: event.guildId, code: MemoryError.is(error) ? error.code : 'INTERNAL' },
      error,
    });
    return rejectedReceipt(event.messageId, error);
  }

  async #registerName(event: MessageEvent): Promise<void> {
    const name = event.authorDisplayName.trim() || event.authorUsername.trim();
    const cacheKey = `${event.guildId}\u0000${event.authorId}`;
    if (name.length === 0 || this.#knownNames.get(cacheKey) === name) return;
    const base = { guildId: event.guildId, userId: event.authorId };
    await this.#deps.registerAlias({ ...base, alias: name, source: AliasSource.DISPLAY_NAME });
    const username = event.authorUsername.trim();
    if (username.length > 0 && normalizeAlias(username) !== normalizeAlias(name)) {
      await this.#deps.registerAlias({ ...base, alias: username, source: AliasSource.DISCORD_USERNAME });
    }
    if (this.#knownNames.size > 50_000) this.#knownNames.clear();
    this.#knownNames.set(cacheKey, name);
  }

  /** Forget cached names of a user (after purge or rename handling elsewhere). */
  forgetUser(guildId: string, userId: string): void {
    this.#knownNames.delete(`${guildId}\u0000${userId}`);
  }
}
