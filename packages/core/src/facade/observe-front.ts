import { observeManyOptionsSchema, observeManySchema } from '../api/memory-inputs.js';
import type { Started } from '../composition/compose.js';
import { parseMessageEvent } from '../ingest/observe.js';
import { parseReactionEvent } from '../ingest/observe-reaction.js';
import { type ObserveReceipt, rejectedReceipt } from '../ingest/observe-receipts.js';
import { type MessageEvent, type MessageEventInput, messageEventSchema } from '../model/message.js';
import {
  type ClearReactionsInput,
  clearReactionsSchema,
  type ReactionEventInput,
} from '../model/reaction.js';
import type { MetricsRegistry } from '../observability/metrics.js';
import { parseInput } from '../validation/index.js';

/**
 * `memory.observe`, `observeMany` and the reaction calls at the facade: validation first (a bad event in a burst stores
 * nothing), a rejected receipt when the store cannot start, receipts counted by status and reason,
 * call latency, and the guilds seen (for flush).
 */
export class ObserveFront {
  readonly #metrics: MetricsRegistry;
  readonly #guilds: Set<string>;
  readonly #start: () => Promise<Started>;

  constructor(metrics: MetricsRegistry, guilds: Set<string>, start: () => Promise<Started>) {
    this.#metrics = metrics;
    this.#guilds = guilds;
    this.#start = start;
  }

  async observe(event: MessageEventInput): Promise<ObserveReceipt> {
    const t0 = performance.now();
    const parsed = parseMessageEvent(event);
    let started: Started;
    try {
      started = await this.#start();
    } catch (error) {
      return this.#counted(rejectedReceipt(parsed.messageId, error), parsed.guildId);
    }
    const receipt = this.#counted(await started.observer.observe(started.rt.store, parsed), parsed.guildId);
    this.#metrics.observe('observe', performance.now() - t0);
    return receipt;
  }

  async observeMany(
    events: readonly MessageEventInput[],
    options: { history?: boolean } = {},
  ): Promise<ObserveReceipt[]> {
    const t0 = performance.now();
    parseInput(observeManyOptionsSchema, options, 'observeMany');
    const parsed: MessageEvent[] = parseInput(observeManySchema, events, 'observeMany').map((e, i) =>
      parseInput(messageEventSchema, e, 'observeMany', [i]),
    );
    let receipts: ObserveReceipt[];
    try {
      const started = await this.#start();
      receipts = await started.observer.observeMany(started.rt.store, parsed, options);
      this.#metrics.observe('observe_many', performance.now() - t0);
    } catch (error) {
      receipts = parsed.map((e) => rejectedReceipt(e.messageId, error));
    }
    return receipts.map((r, i) => this.#counted(r, (parsed[i] as MessageEvent).guildId));
  }

  async observeReaction(event: ReactionEventInput): Promise<ObserveReceipt> {
    const parsed = parseReactionEvent(event);
    const started = await this.#start().catch((error: unknown) => rejectedReceipt(parsed.messageId, error));
    return 'rt' in started ? started.reactions.observe(started.rt.store, parsed) : started;
  }

  async clearReactions(input: ClearReactionsInput): Promise<number> {
    const parsed = parseInput(clearReactionsSchema, input, 'clearReactions');
    const started = await this.#start();
    return started.reactions.clear(started.rt.store, parsed);
  }

  #counted(receipt: ObserveReceipt, guildId: string): ObserveReceipt {
    if (receipt.status === 'accepted') this.#guilds.add(guildId);
    this.#metrics.inc('observe', {
      status: receipt.status,
      ...(receipt.reason ? { reason: receipt.reason } : {}),
    });
    return receipt;
  }
}
