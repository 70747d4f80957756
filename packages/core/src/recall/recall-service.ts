import { findEntity } from '../graph/entity-lookup.js';
import { entityNode, userNode } from '../graph/identity-collapse.js';
import { type ChannelName, RecallWarning } from '../model/enums.js';
import type { Fact } from '../model/fact.js';
import type { Entity, NodeRef } from '../model/graph.js';
import { checkInput } from '../validation/index.js';
import { candidateDepth } from './candidate-depth.js';
import type { ChannelContext, ChannelList, NamedTargets } from './channel-types.js';
import { type EntityChannelResult, entityChannel, entityHintChannel } from './entity-channel.js';
import { smoothByConversation } from './fact-context.js';
import {
  type ActiveComponents,
  type Candidate,
  entityComponent,
  fusedScore,
  mergeChannels,
  selectPool,
} from './fusion.js';
import { graphHopChannel } from './graph-hop-channel.js';
import { phraseMatch, queryPhrases, withPhrase } from './phrase-match.js';
import { capResults, type HardFilter, passesHardFilters } from './recall-filters.js';
import { planRecall, type RecallPlan } from './recall-plan.js';
import { type RecallQuery, type RecallQueryInput, recallQuerySchema } from './recall-query.js';
import { RecallSession } from './recall-session.js';
import type { RecallDeps, RecallResult, RecallService, ScoredFact } from './recall-types.js';
import { rerankTop } from './rerank.js';
import { relativeSemantic } from './semantic-scale.js';
import { strengthSignal } from './strength.js';
import { baselineChannel, linksChannel, pairChannel } from './subject-channels.js';
import { keywordChannel, vectorChannel } from './text-channels.js';
import { temporalMatch, timeWindows } from './time-expressions.js';

const empty = (warnings: RecallWarning[]): RecallResult => ({ facts: [], warnings, degradedChannels: [] });

/** Builds the recall service. `recall` never throws: every failure becomes a warning. */
export function createRecallService(deps: RecallDeps): RecallService {
  return {
    async recall(input: RecallQueryInput, session?: RecallSession): Promise<RecallResult> {
      const parsed = checkInput(recallQuerySchema, input, 'recall');
      if (!parsed.ok) return empty([RecallWarning.QUERY_INVALID]);
      try {
        return await runRecall(deps, parsed.data, session ?? new RecallSession(deps.store, deps.embedder));
      } catch (error) {
        deps.logger?.({
          level: 'error',
          event: 'recall.failed',
          data: { guildId: parsed.data.guildId },
          error,
        });
        return empty([RecallWarning.STORE_UNAVAILABLE]);
      }
    },
  };
}

/** User nodes of the subjects plus their entity twins; bare user nodes if the twin read fails. */
async function subjectNodesOf(
  deps: RecallDeps,
  session: RecallSession,
  guildId: string,
  subjects: readonly string[],
): Promise<NodeRef[]> {
  if (subjects.length === 0) return [];
  try {
    return (await session.nodesOfUsers(guildId, subjects)).nodes;
  } catch (error) {
    deps.logger?.({ level: 'warn', event: 'recall.twins_failed', data: { guildId }, error });
    return subjects.map(userNode);
  }
}

type Task = { readonly channel: ChannelName; readonly run: () => Promise<ChannelList | EntityChannelResult> };

function channelTasks(ctx: ChannelContext, plan: RecallPlan, hint: Promise<Entity | null>): Task[] {
  const r = ctx.deps.retrieval;
  const runs: Record<ChannelName, () => Promise<ChannelList | EntityChannelResult>> = {
    vector: async () => vectorChannel(ctx, await ctx.session.embed(ctx.text as string)),
    keyword: () => keywordChannel(ctx),
    links: () => linksChannel(ctx),
    baseline: () => baselineChannel(ctx),
    entity: () => entityChannel(ctx),
    pair: () => pairChannel(ctx, r.poolSize),
    entity_hint: async () => entityHintChannel(ctx, await hint),
    graph_hop: async () => {
      const entity = await hint;
      const seeds = [...(await ctx.subjectNodes)];
      for (const [a, b] of plan.pairs) seeds.push(userNode(a), userNode(b));
      if (entity) seeds.push(entityNode(entity.slug));
      return graphHopChannel(ctx, seeds, r.hopDepth, r.fanOut);
    },
  };
  return [...plan.channels].map((channel) => ({ channel, run: runs[channel] }));
}

/** Facts a channel list already carries. */
function* readFacts(list: ChannelList): Iterable<Fact> {
  for (const h of list.hits) if (h.fact) yield h.fact;
}

async function runRecall(deps: RecallDeps, q: RecallQuery, session: RecallSession): Promise<RecallResult> {
  const r = deps.retrieval;
  const plan = planRecall(q, (id) => deps.isBot(id));
  const warnings = new Set<RecallWarning>();
  const degraded: ChannelName[] = [];
  if (plan.channels.size === 0) return empty([]);
  const depth = candidateDepth(r, q.topK ?? r.topK);
  const ctx: ChannelContext = {
    deps,
    session,
    guildId: q.guildId,
    text: q.text,
    filter: plan.filter,
    validity: plan.validity,
    subjectIds: plan.subjects,
    // Never rejects (bare user nodes when the twin read fails).
    subjectNodes: subjectNodesOf(deps, session, q.guildId, plan.subjects),
    pairs: plan.pairs,
    limit: depth.channel,
    maxPerSubject: q.maxPerSubject ?? r.maxPerSubject,
  };
  const hint =
    q.entityHint === null ? Promise.resolve(null) : findEntity(deps.store.graph, q.guildId, q.entityHint);
  hint.catch(() => {});
  const tasks = channelTasks(ctx, plan, hint);
  const optedOut = session.optedOut(q.guildId);
  const visibility = session.visibility(deps.access, q.guildId, q.audience);
  const settled = await Promise.allSettled(tasks.map((t) => t.run()));
  const optedOutSet = await optedOut;
  const visible = await visibility;
  if (visible.warning) warnings.add(visible.warning);
  const lists: ChannelList[] = [];
  const targets = { userIds: new Set<string>(), entitySlugs: new Set<string>() };
  settled.forEach((s, i) => {
    const channel = (tasks[i] as Task).channel;
    if (s.status === 'rejected') {
      degraded.push(channel);
      warnings.add(RecallWarning.DEGRADED_CHANNEL);
      deps.logger?.({ level: 'warn', event: 'recall.channel_failed', data: { channel }, error: s.reason });
      return;
    }
    const value = s.value;
    session.remember(readFacts('targets' in value ? value.list : value));
    if ('targets' in value) {
      lists.push(value.list);
      for (const u of value.targets.userIds) targets.userIds.add(u);
      for (const e of value.targets.entitySlugs) targets.entitySlugs.add(e);
    } else lists.push(value);
  });
  const ranked = await scoreCandidates(deps, session, q, lists, targets, depth.pool);
  const filter: HardFilter = {
    guildId: q.guildId,
    scope: plan.scope,
    subjects: new Set(plan.subjects),
    includeServer: q.includeServer,
    asOf: q.asOf,
    excluded: new Set(q.excludeIds),
    optedOut: optedOutSet,
    isBot: (id) => deps.isBot(id),
    visible: (channels) => visible.channels(channels),
  };
  const minScore = q.minScore ?? r.minScore;
  let eligible = smoothByConversation(
    ranked.filter((item) => passesHardFilters(item, filter)),
    r.factContextWeight,
    r.neighborMaxGapMinutes * 60_000,
  ).filter((item) => item.score >= minScore);
  if (deps.reranker && q.rerank && q.text !== null && eligible.length > 0) {
    const outcome = await rerankTop(
      deps.reranker,
      q.text,
      eligible,
      (item) => item.fact.text,
      r.rerankPoolSize,
      r.rerankTimeoutMs,
    );
    if (outcome.failed) {
      warnings.add(RecallWarning.RERANKER_FAILED);
      deps.logger?.({ level: 'warn', event: 'recall.reranker_failed', data: { guildId: q.guildId } });
    }
    eligible = outcome.items.map((item, i) => ({ ...item, rerankScore: outcome.scores[i] ?? null }));
  }
  const capped = capResults(eligible, q.maxPerSubject ?? r.maxPerSubject, q.topK ?? r.topK);
  if (capped.trimmed) warnings.add(RecallWarning.BUDGET_TRIMMED);
  if (r.reinforceOnRecall && capped.facts.length > 0) {
    try {
      await deps.store.facts.touch(
        q.guildId,
        capped.facts.map((f) => f.fact.id),
        deps.clock.now(),
      );
    } catch (error) {
      deps.logger?.({ level: 'warn', event: 'recall.reinforce_failed', data: { guildId: q.guildId }, error });
    }
  }
  return { facts: capped.facts, warnings: [...warnings], degradedChannels: degraded };
}

/** Fuses the lists, keeps the pool, reads missing facts and computes every component. */
async function scoreCandidates(
  deps: RecallDeps,
  session: RecallSession,
  q: RecallQuery,
  lists: readonly ChannelList[],
  targets: NamedTargets,
  poolSize: number,
): Promise<ScoredFact[]> {
  const r = deps.retrieval;
  const merged = mergeChannels(
    lists,
    r.rrfK,
    relativeSemantic(r.semanticScale, deps.embedder),
    r.lexicalFloor,
  );
  const now = q.asOf ?? deps.clock.now();
  const windows = q.text === null ? [] : timeWindows(q.text, now);
  const active: ActiveComponents = {
    entity: targets.userIds.size > 0 || targets.entitySlugs.size > 0,
    temporal: windows.length > 0,
    strength: true,
  };
  const pool = selectPool(merged.values(), r.weights, active, poolSize);
  const missing = pool.filter((c) => !c.fact).map((c) => c.factId);
  if (missing.length > 0) {
    const read = await session.facts(q.guildId, missing);
    const byId = new Map(read.map((f) => [f.id, f]));
    for (const c of pool) if (!c.fact) c.fact = byId.get(c.factId);
  }
  const stability = deps.lifecycle.decayStabilityDays;
  // The phrase match applies to queries of two terms or more, like the temporal component to
  // queries naming a date: other queries keep their fused score unscaled (see fusedScore).
  const phrases = r.phraseWeight > 0 && q.text !== null ? queryPhrases(q.text) : new Set<string>();
  const scored: ScoredFact[] = [];
  for (const c of pool as Candidate[]) {
    const fact = c.fact;
    if (!fact) continue;
    const components = {
      semantic: c.semantic,
      lexical: c.lexical,
      entity: entityComponent(c, fact, targets),
      strength: strengthSignal(fact, now, stability),
      rrf: c.rrf,
      temporal: temporalMatch(fact.observedAt, windows),
      context: 0,
    };
    const fused = fusedScore(components, r.weights, active);
    // Only a keyword hit can hold a query phrase (both of its terms); others are not analysed.
    const phrase = phrases.size > 0 && c.lexical > 0 ? phraseMatch(phrases, fact.text) : 0;
    scored.push({
      fact,
      score: phrases.size > 0 ? Math.round(withPhrase(fused, phrase, r.phraseWeight) * 1e6) / 1e6 : fused,
      components,
      matchedChannels: c.channels,
      hopPath: c.hopPath,
      rerankScore: null,
    });
  }
  // Ties: fused rrf, then id.
  return scored.sort(
    (a, b) => b.score - a.score || b.components.rrf - a.components.rrf || (a.fact.id < b.fact.id ? -1 : 1),
  );
}
