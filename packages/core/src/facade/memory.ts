import { randomBytes } from 'node:crypto';
import { type CommandClassification, classifyCommand } from '../api/classify-command.js';
import { type FlushReport, flushNow } from '../api/flush.js';
import type { ForgetMessageInput, ForgetMessageReport } from '../api/forget-api.js';
import {
  classifyCommandSchema,
  closeSchema,
  eventsOnSchema,
  flushSchema,
  regenerateSchema,
  registerBotIdSchema,
  statsSchema,
} from '../api/memory-inputs.js';
import { composeServices, type Started } from '../composition/compose.js';
import type { MemoryOverrides } from '../composition/overrides.js';
import { buildRuntime } from '../composition/runtime.js';
import { isolatedOverrides, validateOverrides } from '../composition/user-code.js';
import { type MemoryConfig, type MemoryConfigInput, parseConfig } from '../config/index.js';
import type { PromptContextInput } from '../context/prompt-context-service.js';
import type { CitedReply, PromptContext } from '../context/prompt-context-types.js';
import type { ContextInput, TwoTierContext } from '../conversation/context-service.js';
import { ErrorCode, MemoryError } from '../errors/index.js';
import type { ObserveReceipt } from '../ingest/observe-receipts.js';
import type { GuildStats } from '../model/admin.js';
import type { MessageEventInput } from '../model/message.js';
import type { ClearReactionsInput, ReactionEventInput } from '../model/reaction.js';
import { EventBus, type MemoryEvents, type MemoryEventType } from '../observability/events.js';
import { MetricsRegistry } from '../observability/metrics.js';
import type { RecallQueryInput } from '../recall/recall-query.js';
import type { RecallResult } from '../recall/recall-types.js';
import { parseInput, parseNoArgs } from '../validation/index.js';
import type { Lazy } from './lazy-group.js';
import { lazyGroups } from './lazy-groups.js';
import { ObserveFront } from './observe-front.js';
import { createOpsApi, type OpsApi } from './ops-api.js';
import { ReadFront } from './read-front.js';
import { regenerateDigests } from './regenerate-digests.js';
import { shutDown } from './shutdown.js';

/**
 * Long-term memory for one bot: observe messages, extract facts in the background, recall them
 * before replying. Construction does no I/O; every call starts the instance lazily.
 */
export class Memory {
  readonly config: MemoryConfig;
  readonly events: {
    on<K extends MemoryEventType>(type: K, handler: (payload: MemoryEvents[K]) => void): () => void;
  };
  readonly facts: Lazy<Started['facts']>;
  readonly identity: Lazy<Started['identity']>;
  readonly graph: Lazy<Started['graph']>;
  readonly admin: Lazy<Started['admin']>;
  readonly conversation: Lazy<Started['conversation']>;
  readonly claims: Lazy<Started['claims']>;
  readonly activeModes: Lazy<Started['activeModes']>;
  readonly insights: Lazy<Started['insights']>;
  readonly cursors: Lazy<Started['cursors']>;
  readonly ops: OpsApi;
  readonly #overrides: MemoryOverrides;
  readonly #bus: EventBus;
  readonly #metrics = new MetricsRegistry();
  readonly #botIds = new Set<string>();
  readonly #guilds = new Set<string>();
  readonly #instanceId: string;
  readonly #observing: ObserveFront;
  readonly #reading: ReadFront;
  #starting: Promise<Started> | null = null;
  #closed = false;
  /** Aborted by close(): model calls in flight end with CLOSED. */
  readonly #lifetime = new AbortController();

  constructor(config: MemoryConfig, overrides: MemoryOverrides = {}) {
    this.config = config;
    validateOverrides(overrides);
    this.#overrides = isolatedOverrides(overrides);
    this.#instanceId = overrides.instanceId ?? `pf-${randomBytes(6).toString('hex')}`;
    this.#bus = new EventBus(this.#overrides.logger);
    this.events = {
      on: (type, handler) => {
        parseInput(eventsOnSchema, [type, handler], 'events.on');
        return this.#bus.on(type, handler);
      },
    };
    const s = () => this.#start();
    this.#observing = new ObserveFront(this.#metrics, this.#guilds, s);
    this.#reading = new ReadFront(this.#metrics, s);
    const groups = lazyGroups(s);
    this.facts = groups.facts;
    this.identity = groups.identity;
    this.graph = groups.graph;
    this.admin = groups.admin;
    this.conversation = groups.conversation;
    this.claims = groups.claims;
    this.activeModes = groups.activeModes;
    this.insights = groups.insights;
    this.cursors = groups.cursors;
    this.ops = createOpsApi({
      runtime: async () => (await s()).rt,
      engine: async () => (await s()).engine,
      events: this.#bus,
      metrics: this.#metrics,
      guilds: () => this.#guilds,
      workersRunning: () => this.#loopRunning,
    });
  }

  #loopRunning = false;

  /** Starts explicitly (optional: every call starts lazily). Idempotent. */
  async start(...none: []): Promise<void> {
    parseNoArgs(none, 'start');
    await this.#start();
  }

  #start(): Promise<Started> {
    if (this.#closed)
      return Promise.reject(new MemoryError(ErrorCode.CLOSED, 'this memory instance was closed'));
    this.#starting ??= this.#boot().catch((error: unknown) => {
      this.#starting = null;
      // Read paths never throw (they answer with a store_unavailable warning), so this event is
      // where an operator sees why: a missing store package, a bad URL, a schema or embedder mismatch.
      this.#overrides.logger?.({
        level: 'error',
        event: 'memory.start_failed',
        data: { code: error instanceof MemoryError ? error.code : ErrorCode.STORE_UNAVAILABLE },
        error,
      });
      throw error;
    });
    return this.#starting;
  }

  async #boot(): Promise<Started> {
    const rt = await buildRuntime(this.config, this.#overrides, this.#lifetime.signal);
    for (const guildId of await rt.store.admin.listGuildIds()) this.#guilds.add(guildId);
    const started = composeServices(rt, {
      bus: this.#bus,
      metrics: this.#metrics,
      instanceId: this.#instanceId,
      isBot: (id) => this.#botIds.has(id),
      botId: () => [...this.#botIds][0] ?? null,
      guilds: () => this.#guilds,
      ensureStarted: async () => {
        await this.#start();
      },
    });
    if (started.loop) {
      started.loop.start();
      this.#loopRunning = true;
    }
    return started;
  }

  /**
   * Forgets a deleted message: its stored row and keyword/vector entries go (bytes too, on stores
   * with physical purge), facts whose only source it was are retired, and it leaves the sources of
   * the others. Work in flight that holds the message cannot write it back.
   */
  async forgetMessage(input: ForgetMessageInput): Promise<ForgetMessageReport> {
    const started = await this.#start();
    return started.forget.forgetMessage(input);
  }

  /**
   * Records that a member added (or removed) a reaction to a stored message: O(1), idempotent per
   * (message, member, emoji), never a model call and never a statement of the member who reacted.
   */
  observeReaction(event: ReactionEventInput): Promise<ObserveReceipt> {
    return this.#observing.observeReaction(event);
  }

  /** Removes every reaction of a message (Discord's "remove all"), or only one emoji's; returns how many. */
  clearReactions(input: ClearReactionsInput): Promise<number> {
    return this.#observing.clearReactions(input);
  }

  /** Stores a message for background extraction. O(1); never calls a model or an embedder. */
  observe(event: MessageEventInput): Promise<ObserveReceipt> {
    return this.#observing.observe(event);
  }

  /**
   * Observes messages in order, one receipt each; a burst is written in one store transaction.
   * `history: true` marks past messages imported in bulk (a channel's history): they do not spend
   * the members' observe rate (`observe.memberBurst`), which exists for live floods; every other
   * rule applies (bots, opt-outs, content, queue depth).
   */
  observeMany(
    events: readonly MessageEventInput[],
    options: { history?: boolean } = {},
  ): Promise<ObserveReceipt[]> {
    return this.#observing.observeMany(events, options);
  }

  /**
   * Processes every pending batch now, due or not, and the community pass where enough new
   * messages arrived. Returns batches processed; with `report: true`, a FlushReport that also
   * counts what could not be taken (messages leased by another process, messages backing off).
   */
  flush(input?: { guildId?: string; report?: false }): Promise<number>;
  flush(input: { guildId?: string; report: true }): Promise<FlushReport>;
  async flush(input: { guildId?: string; report?: boolean } = {}): Promise<number | FlushReport> {
    parseInput(flushSchema, input, 'flush');
    const { engine, rt } = await this.#start();
    const report = await flushNow(
      { engine, store: rt.store, logger: rt.logger },
      [...this.#guilds],
      input.guildId,
    );
    return input.report ? report : report.batches;
  }

  /** Zero-model hybrid recall. Never throws: failures become warnings and degraded channels. */
  recall(query: RecallQueryInput): Promise<RecallResult> {
    return this.#reading.recall(query);
  }

  /** The labelled memory block for a reply, with citations. Zero model calls; never throws. */
  promptContext(input: PromptContextInput): Promise<PromptContext> {
    return this.#reading.promptContext(input);
  }

  /** Two-tier context: the channel's recent messages, plus long-term memory when the mode calls for it. */
  context(input: ContextInput): Promise<TwoTierContext> {
    return this.#reading.context(input);
  }

  /** Attributes reply sentences to the facts of a prompt context by embedding similarity. Never throws. */
  cite(reply: string, ctx: Pick<PromptContext, 'citations'>): Promise<CitedReply> {
    return this.#reading.cite(reply, ctx);
  }

  /** A bot is never a subject and its messages are never observed. */
  registerBotId(userId: string): void {
    parseInput(registerBotIdSchema, userId, 'registerBotId');
    this.#botIds.add(userId);
  }

  async stats(input: { guildId: string }): Promise<GuildStats> {
    parseInput(statsSchema, input, 'stats');
    return (await this.#start()).rt.store.admin.guildStats(input.guildId);
  }

  /** Regenerates profile digests now (for the given members, or every member with facts, plus the server). */
  async regenerateSummaries(input: { guildId: string; userIds?: readonly string[] }): Promise<number> {
    parseInput(regenerateSchema, input, 'regenerateSummaries');
    return regenerateDigests(await this.#start(), input);
  }

  /** Detects "remember/forget/update/what do you know" commands; a regex gate runs before any model. */
  async classifyCommand(text: string): Promise<CommandClassification> {
    parseInput(classifyCommandSchema, text, 'classifyCommand');
    const { rt, deps } = await this.#start();
    return classifyCommand(text, {
      llm: rt.smallLlm,
      structuredMode: deps.structuredMode,
      ...(rt.logger ? { logger: rt.logger } : {}),
    });
  }

  /**
   * Stops workers, optionally drains due batches, and closes the store. Safe to call twice. Returns
   * within `timeoutMs` (default 30 s) plus the store's own close: at the deadline (at once with
   * `drain: false`) model calls in flight are aborted, and their batches stay queued for later.
   */
  async close(options: { drain?: boolean; timeoutMs?: number } = {}): Promise<void> {
    parseInput(closeSchema, options, 'close');
    if (this.#closed) return;
    const starting = this.#starting;
    this.#closed = true;
    if (!starting) {
      this.#lifetime.abort();
      return;
    }
    await shutDown(starting, {
      drain: options.drain ?? true,
      timeoutMs: options.timeoutMs ?? 30_000,
      lifetime: this.#lifetime,
      loopStopped: () => {
        this.#loopRunning = false;
      },
    });
  }
}

/** Validates configuration (CONFIG_INVALID on any problem) and returns an unstarted memory. */
export function createMemory(config?: MemoryConfigInput, overrides: MemoryOverrides = {}): Memory {
  return new Memory(parseConfig(config ?? {}, overrides.env ? { env: overrides.env } : {}), overrides);
}
