import { type AdminApi, createAdminApi } from '../api/admin-api.js';
import { type CursorsApi, createCursorsApi } from '../api/cursors-api.js';
import { createFactsApi, type FactsApi } from '../api/facts-api.js';
import { createForgetApi, type ForgetApi } from '../api/forget-api.js';
import { createPromptContextService, type PromptContextService } from '../context/prompt-context-service.js';
import { ContextService } from '../conversation/context-service.js';
import { type ConversationApi, createConversationApi } from '../conversation/conversation-api.js';
import { createActiveModesApi, createClaimsApi } from '../conversation/coordination-api.js';
import { HotTier } from '../conversation/hot-tier.js';
import { createInsightsApi, type InsightsApi } from '../conversation/insights-api.js';
import { toConversationMessage } from '../conversation/message-view.js';
import { createGraphService, type GraphService } from '../graph/graph-service.js';
import { createIdentityService, type IdentityService } from '../identity/identity-service.js';
import { cappedAliasRegistration } from '../ingest/alias-cap.js';
import { BudgetService } from '../ingest/budgets.js';
import type { IngestDeps } from '../ingest/deps.js';
import { IngestEngine } from '../ingest/engine.js';
import { MemberRate, memberBurstOf } from '../ingest/member-rate.js';
import { Observer } from '../ingest/observe.js';
import { ReactionObserver } from '../ingest/observe-reaction.js';
import type { EventBus } from '../observability/events.js';
import type { MetricsRegistry } from '../observability/metrics.js';
import { createMessageSearch, type MessageSearch } from '../recall/message-search.js';
import { createRecallService } from '../recall/recall-service.js';
import type { RecallService } from '../recall/recall-types.js';
import { structuredModeOf } from './models.js';
import type { Runtime } from './runtime.js';
import { WorkerLoop } from './worker-loop.js';

/** Every service of a started memory. */
export interface Started {
  readonly rt: Runtime;
  readonly deps: IngestDeps;
  readonly engine: IngestEngine;
  readonly observer: Observer;
  readonly reactions: ReactionObserver;
  readonly identity: IdentityService;
  readonly recall: RecallService;
  readonly messageSearch: MessageSearch;
  readonly graph: GraphService;
  readonly prompt: PromptContextService;
  readonly context: ContextService;
  readonly facts: FactsApi;
  readonly admin: AdminApi;
  readonly forget: ForgetApi;
  readonly conversation: ConversationApi & { search: MessageSearch['search'] };
  readonly claims: ReturnType<typeof createClaimsApi>;
  readonly activeModes: ReturnType<typeof createActiveModesApi>;
  readonly insights: InsightsApi;
  readonly cursors: CursorsApi;
  readonly loop: WorkerLoop | null;
}

export interface ComposeOptions {
  readonly bus: EventBus;
  readonly metrics: MetricsRegistry;
  readonly instanceId: string;
  readonly isBot: (userId: string) => boolean;
  readonly botId: () => string | null;
  readonly guilds: () => Iterable<string>;
  readonly ensureStarted: () => Promise<void>;
}

/** The composition root: wires adapters into pipelines and API groups (no I/O beyond construction). */
export function composeServices(rt: Runtime, o: ComposeOptions): Started {
  const { store, clock, config } = rt;
  const log = rt.logger ? { logger: rt.logger } : {};
  const deps: IngestDeps = {
    store,
    embedder: rt.embedder,
    llm: rt.llm,
    smallLlm: rt.smallLlm,
    clock,
    ids: rt.ids,
    config,
    events: o.bus,
    budgets: new BudgetService({ store: store.budgets, clock, config: config.budgets, events: o.bus }),
    isBot: o.isBot,
    structuredMode: structuredModeOf(config),
    ...log,
  };
  const identity = createIdentityService({ store, clock, isBot: o.isBot, ...log });
  const recall = createRecallService({
    store,
    embedder: rt.embedder,
    clock,
    retrieval: config.retrieval,
    lifecycle: config.lifecycle,
    reranker: rt.reranker,
    access: rt.access,
    isBot: o.isBot,
    ...log,
  });
  const messageSearch = createMessageSearch({
    store,
    access: rt.access,
    embedder: rt.embedder,
    clock,
    retrieval: config.retrieval,
    isBot: o.isBot,
    ...log,
  });
  const graph = createGraphService({ store, clock, access: rt.access, isBot: o.isBot });
  const prompt = createPromptContextService({
    recall,
    access: rt.access,
    identity,
    store,
    embedder: rt.embedder,
    clock,
    retrieval: config.retrieval,
    isBot: o.isBot,
    ...log,
  });
  const hot = new HotTier(config.context.hotMessages);
  const context = new ContextService({
    store,
    clock,
    hot,
    config: config.context,
    metrics: o.metrics,
    promptContext: ({ companions, ...i }) =>
      prompt.promptContext({ ...i, mentionedIds: [...i.mentionedIds] }, { companions }),
  });
  o.bus.on('FactCommitted', (e) => context.invalidate(e.guildId, e.fact.subjectId));
  o.bus.on('FactSuperseded', (e) => context.invalidate(e.guildId, e.subjectId));
  o.bus.on('BatchCompleted', () => o.metrics.inc('ingest.batches'));
  const forget = createForgetApi({
    ...deps,
    ensureStarted: o.ensureStarted,
    dropCached: (g, c, m) => hot.forgetMessage(g, c, m),
  });
  const observer = new Observer({
    config,
    clock,
    isBot: o.isBot,
    reviseMessage: (row) => forget.reviseMessage(row),
    forgetEdited: async (e) => {
      await forget.forgetMessage({ guildId: e.guildId, channelId: e.channelId, messageId: e.messageId });
    },
    onStored: (row) => hot.push(toConversationMessage(row)),
    rate: new MemberRate(memberBurstOf(config), config.observe.memberMessagesPerMinute, 60_000),
    registerAlias: cappedAliasRegistration(
      store,
      (a) => identity.registerAlias(a),
      config.observe.maxAliasesPerMember,
    ),
    ...log,
  });
  const engine = new IngestEngine(deps, o.instanceId);
  const facts = createFactsApi({ ...deps, recall, access: rt.access, ensureStarted: o.ensureStarted });
  const admin = createAdminApi({
    ...deps,
    ensureStarted: o.ensureStarted,
    forgetUserCaches: (g, u) => {
      observer.forgetUser(g, u);
      hot.forgetUser(g, u);
      context.invalidate(g, u);
    },
  });
  const coordination = { store, clock, instanceId: o.instanceId };
  const conversation = {
    ...createConversationApi({
      store,
      clock,
      ids: rt.ids,
      hot,
      maxSessionEntries: config.conversation.maxSessionEntries,
      botId: o.botId,
      access: rt.access,
    }),
    search: (input: Parameters<MessageSearch['search']>[0]) => messageSearch.search(input),
  };
  const loop = config.workers.enabled
    ? new WorkerLoop({
        engine,
        maintenance: { store, clock, config, events: o.bus, ...log },
        guilds: o.guilds,
        pollMs: config.workers.pollIntervalMs,
        batchLimit: config.workers.count * 4,
        ...log,
      })
    : null;
  return {
    rt,
    deps,
    engine,
    observer,
    reactions: new ReactionObserver({ clock, isBot: o.isBot, ...log }),
    identity,
    recall,
    messageSearch,
    graph,
    prompt,
    context,
    facts,
    admin,
    forget,
    conversation,
    claims: createClaimsApi(coordination),
    activeModes: createActiveModesApi({ store, clock, owner: config.conversation.modesOwner }),
    insights: createInsightsApi({ store, clock, access: rt.access }),
    cursors: createCursorsApi({ cursors: store.cursors }),
    loop,
  };
}
