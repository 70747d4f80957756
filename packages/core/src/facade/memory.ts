import { randomBytes } from 'node:crypto';
import { type CommandClassification, classifyCommand } from '../api/classify-command.js';
import { emptyPromptContext } from '../api/empty-context.js';
import { type FlushReport, flushNow } from '../api/flush.js';
import type { ForgetMessageInput, ForgetMessageReport } from '../api/forget-api.js';
import {
  citeSchema,
  classifyCommandSchema,
  closeSchema,
  contextSchema,
  eventsOnSchema,
  flushSchema,
  observeManySchema,
  regenerateSchema,
  registerBotIdSchema,
  statsSchema,
} from '../api/memory-inputs.js';
import { composeServices, type Started } from '../composition/compose.js';
import type { MemoryOverrides } from '../composition/overrides.js';
import { buildRuntime } from '../composition/runtime.js';
import { isolatedOverrides, validateOverrides } from '../composition/user-code.js';
import { type MemoryConfig, type MemoryConfigInput, parseConfig } from '../config/index.js';
import { cite as citeReply } from '../context/cite.js';
import type { PromptContextInput } from '../context/prompt-context-service.js';
import type { CitedReply, PromptContext } from '../context/prompt-context-types.js';
import type { ContextInput, TwoTierContext } from '../conversation/context-service.js';
import { ErrorCode, MemoryError } from '../errors/index.js';
import { refreshDigest } from '../ingest/digests.js';
import { parseMessageEvent } from '../ingest/observe.js';
import { parseReactionEvent } from '../ingest/observe-reaction.js';
import { type ObserveReceipt, rejectedReceipt } from '../ingest/observe-receipts.js';
import type { GuildStats } from '../model/admin.js';
import { RecallWarning } from '../model/enums.js';
import { type MessageEvent, type MessageEventInput, messageEventSchema } from '../model/message.js';
import {
  type ClearReactionsInput,
  clearReactionsSchema,
  type ReactionEventInput,
} from '../model/reaction.js';
import { EventBus, type MemoryEvents, type MemoryEventType } from '../observability/events.js';
import { MetricsRegistry } from '../observability/metrics.js';
import type { RecallQueryInput } from '../recall/recall-query.js';
import type { RecallResult } from '../recall/recall-types.js';
import { checkInput, parseInput, parseNoArgs } from '../validation/index.js';
import { type Lazy, lazyGroup } from './lazy-group.js';
import { createOpsApi, type OpsApi } from './ops-api.js';

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
  readonly ops: OpsApi;
  readonly #overrides: MemoryOverrides;
  readonly #bus: EventBus;
  readonly #metrics = new MetricsRegistry();
  readonly #botIds = new Set<string>();
  readonly #guilds = new Set<string>();
  readonly #instanceId: string;
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
    this.facts = lazyGroup(
      async () => (await s()).facts,
      ['remember', 'get', 'getAll', 'update', 'forget', 'reinforce', 'history', 'listForSubject', 'search'],
    );
    this.identity = lazyGroup(
      async () => (await s()).identity,
      [
        'resolve',
        'resolveMany',
        'registerAlias',
        'handleMemberRename',
        'aliasesOf',
        'displayName',
        'reconcileTwins',
      ],
    );
    this.graph = lazyGroup(
      async () => (await s()).graph,
      [
        'between',
        'relationsOf',
        'entityStances',
        'usersForEntity',
        'shared',
        'sharedN',
        'similarUsers',
        'neighbors',
      ],
    );
    this.admin = lazyGroup(
      async () => (await s()).admin,
      ['setOptOut', 'getOptOut', 'purgeUser', 'exportGuild', 'importGuild', 'exportUser', 'backup'],
    );
    this.conversation = lazyGroup(
      async () => (await s()).conversation,
      [
        'threadHistory',
        'authorHistory',
        'channelStats',
        'recordReply',
        'search',
        'append',
        'session',
        'clear',
      ],
    );
    this.claims = lazyGroup(async () => (await s()).claims, ['tryClaim', 'release']);
    this.activeModes = lazyGroup(async () => (await s()).activeModes, ['persist', 'touch', 'remove', 'list']);
    this.insights = lazyGroup(async () => (await s()).insights, ['topicTrends', 'activity', 'preferences']);
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

  /** Stores a message for background extraction. O(1); never calls a model or an embedder. */
  async observe(event: MessageEventInput): Promise<ObserveReceipt> {
    const t0 = performance.now();
    const parsed = parseMessageEvent(event);
    let started: Started;
    try {
      started = await this.#start();
    } catch (error) {
      const rejected = rejectedReceipt(parsed.messageId, error);
      this.#counted(rejected, parsed.guildId);
      return rejected;
    }
    const receipt = await started.observer.observe(started.rt.store, parsed);
    this.#counted(receipt, parsed.guildId);
    this.#metrics.observe('observe', performance.now() - t0);
    return receipt;
  }

  /**
   * Records that a member added (or removed) a reaction to a stored message: O(1), idempotent per
   * (message, member, emoji), never a model call and never a statement of the member who reacted.
   */
  async observeReaction(event: ReactionEventInput): Promise<ObserveReceipt> {
    const parsed = parseReactionEvent(event);
    const started = await this.#start().catch((error: unknown) => rejectedReceipt(parsed.messageId, error));
    return 'rt' in started ? started.reactions.observe(started.rt.store, parsed) : started;
  }

  /** Removes every reaction of a message (Discord's "remove all"), or only one emoji's; returns how many. */
  async clearReactions(input: ClearReactionsInput): Promise<number> {
    const parsed = parseInput(clearReactionsSchema, input, 'clearReactions');
    const started = await this.#start();
    return started.reactions.clear(started.rt.store, parsed);
  }

  #counted(receipt: ObserveReceipt, guildId: string): void {
    if (receipt.status === 'accepted') this.#guilds.add(guildId);
    this.#metrics.inc('observe', {
      status: receipt.status,
      ...(receipt.reason ? { reason: receipt.reason } : {}),
    });
  }

  /** Observes messages in order; one receipt each. */
  async observeMany(events: readonly MessageEventInput[]): Promise<ObserveReceipt[]> {
    // Every event is validated before the first is stored: a bad one stores nothing.
    const t0 = performance.now();
    const parsed = parseInput(observeManySchema, events, 'observeMany').map((e, i) =>
      parseInput(messageEventSchema, e, 'observeMany', [i]),
    );
    let started: Started;
    try {
      started = await this.#start();
    } catch (error) {
      const receipts = parsed.map((e) => rejectedReceipt(e.messageId, error));
      for (const [i, receipt] of receipts.entries())
        this.#counted(receipt, (parsed[i] as MessageEvent).guildId);
      return receipts;
    }
    const receipts = await started.observer.observeMany(started.rt.store, parsed);
    for (const [i, receipt] of receipts.entries())
      this.#counted(receipt, (parsed[i] as MessageEvent).guildId);
    this.#metrics.observe('observe_many', performance.now() - t0);
    return receipts;
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
  async recall(query: RecallQueryInput): Promise<RecallResult> {
    const t0 = performance.now();
    try {
      const result = await (await this.#start()).recall.recall(query);
      this.#metrics.observe('recall', performance.now() - t0);
      return result;
    } catch {
      this.#metrics.inc('recall.errors');
      return { facts: [], warnings: [RecallWarning.STORE_UNAVAILABLE], degradedChannels: [] };
    }
  }

  /** The labelled memory block for a reply, with citations. Zero model calls; never throws. */
  async promptContext(input: PromptContextInput): Promise<PromptContext> {
    const t0 = performance.now();
    try {
      const started = await this.#start();
      const ctx = await started.prompt.promptContext(input);
      this.#metrics.observe('prompt_context', performance.now() - t0);
      return ctx;
    } catch {
      this.#metrics.inc('prompt_context.errors');
      return emptyPromptContext([RecallWarning.STORE_UNAVAILABLE]);
    }
  }

  /** Two-tier context: the channel's recent messages, plus long-term memory when the mode calls for it. */
  async context(input: ContextInput): Promise<TwoTierContext> {
    const valid = checkInput(contextSchema, input, 'context').ok;
    const started = valid ? await this.#start().catch(() => null) : null;
    if (!started) {
      return {
        recent: [],
        longTerm: null,
        block: '',
        mode: valid ? (input.mode ?? 'normal') : 'normal',
        trigger: null,
        cached: false,
        warnings: [valid ? RecallWarning.STORE_UNAVAILABLE : RecallWarning.QUERY_INVALID],
        timings: { hotMs: 0, longTermMs: null },
      };
    }
    return started.context.context(input);
  }

  /** Attributes reply sentences to the facts of a prompt context by embedding similarity. Never throws. */
  async cite(reply: string, ctx: Pick<PromptContext, 'citations'>): Promise<CitedReply> {
    parseInput(citeSchema, [reply, ctx], 'cite');
    try {
      const started = await this.#start();
      return await citeReply(reply, ctx, {
        embedder: started.rt.embedder,
        minScore: started.rt.config.retrieval.citationMinScore,
      });
    } catch {
      return { text: reply, claims: [], sources: [] };
    }
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
    const { rt, deps, identity } = await this.#start();
    const subjects: (string | null)[] = input.userIds
      ? [...input.userIds]
      : [
          ...new Set(
            (await rt.store.facts.topStrength({ guildId: input.guildId }, 500)).map((f) => f.subjectId),
          ),
        ];
    if (!subjects.includes(null)) subjects.push(null);
    let n = 0;
    for (const subjectId of subjects) {
      const name =
        subjectId === null
          ? 'the server'
          : ((await identity.displayName({ guildId: input.guildId, userId: subjectId })) ?? 'a member');
      if ((await refreshDigest(deps, input.guildId, subjectId, name, true)) === 'updated') n++;
    }
    return n;
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
    const drain = options.drain ?? true;
    const timeoutMs = options.timeoutMs ?? 30_000;
    const deadline = Date.now() + timeoutMs;
    const abortAt = setTimeout(() => this.#lifetime.abort(), drain ? timeoutMs : 0);
    abortAt.unref?.();
    try {
      const started = await starting.catch(() => null);
      if (!started) return;
      await started.loop?.stop();
      this.#loopRunning = false;
      await started.engine.idle();
      if (drain) {
        const force = !started.rt.store.capabilities.durable;
        try {
          while (Date.now() < deadline && !this.#lifetime.signal.aborted) {
            if ((await started.engine.runPending({ limit: 64, ...(force ? { force } : {}) })) === 0) break;
          }
        } catch (error) {
          started.rt.logger?.({ level: 'warn', event: 'memory.drain_failed', error });
        }
      }
      this.#lifetime.abort();
      await started.engine.idle();
      await started.rt.embedder.close().catch(() => undefined);
      await started.rt.store.close();
    } finally {
      clearTimeout(abortAt);
      this.#lifetime.abort();
    }
  }
}

/** Validates configuration (CONFIG_INVALID on any problem) and returns an unstarted memory. */
export function createMemory(config?: MemoryConfigInput, overrides: MemoryOverrides = {}): Memory {
  return new Memory(parseConfig(config ?? {}, overrides.env ? { env: overrides.env } : {}), overrides);
}
