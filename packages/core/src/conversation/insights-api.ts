import { z } from 'zod';
import { type AccessDeps, resolveVisibility, type Visibility } from '../access/visibility.js';
import { visibleGraph } from '../access/visible-graph.js';
import { normalizeAlias } from '../identity/aliases.js';
import { audienceSchema } from '../model/audience.js';
import type { Polarity } from '../model/enums.js';
import type { StoredMessage } from '../model/message.js';
import { effectiveRelationWeight } from '../model/relation-rules.js';
import type { Clock } from '../ports/clock.js';
import type { MemoryStore } from '../ports/memory-store.js';
import { indexTerms, tokenize } from '../text/analyze.js';
import { countField, idField as id, parseInput, userIdField } from '../validation/index.js';
import { reactionCountsOf, totalReactions } from './reaction-counts.js';

const HOUR = 3_600_000;
const MAX_WINDOW_MESSAGES = 50_000;

/** Only messages, and stances resting on facts, this audience may see (see `access.requireAudience`). */
const audience = audienceSchema.nullish();
/** Each message counts 1 + the reactions it received (engagement), instead of 1. */
const weightByReactions = z.boolean().optional();

const trendsSchema = z
  .object({
    guildId: id,
    hours: z
      .number()
      .positive()
      .max(24 * 366)
      .optional(),
    limit: countField(500).optional(),
    minCount: countField(1_000_000).optional(),
    audience,
    weightByReactions,
  })
  .strict();
const activitySchema = z
  .object({ guildId: id, days: z.number().positive().max(3660).optional(), audience, weightByReactions })
  .strict();
const preferencesSchema = z
  .object({ guildId: id, userId: userIdField, limit: countField(500).optional(), audience })
  .strict();

export interface TopicTrend {
  readonly topic: string;
  readonly kind: 'entity' | 'keyword';
  /** Mentions in the window (with `weightByReactions`, each message counts 1 + its reactions). */
  readonly count: number;
  /** Mentions in the previous window of the same length (weighted the same way). */
  readonly previous: number;
  /** (count + 1) / (previous + 1). */
  readonly lift: number;
}

export interface ActivityPattern {
  /** Messages counted (not weighted). */
  readonly messages: number;
  /** Messages per UTC hour of day (24 values); with `weightByReactions`, each counts 1 + its reactions. */
  readonly byHour: readonly number[];
  /** Messages per UTC weekday, Sunday first (7 values). */
  readonly byWeekday: readonly number[];
  /** Busiest hours, most messages first. */
  readonly peakHours: readonly number[];
  readonly peakWeekday: number | null;
}

export interface Preference {
  readonly target: string;
  readonly targetType: 'user' | 'entity';
  readonly verb: string;
  readonly polarity: Polarity;
  readonly weight: number;
  readonly evidenceFactIds: readonly string[];
}

/** `memory.insights`: what a community talks about and when it is active, as an audience may see it. */
export function createInsightsApi(deps: { store: MemoryStore; clock: Clock; access: AccessDeps }) {
  const messagesSince = async (
    guildId: string,
    since: Date,
    visible: Visibility,
  ): Promise<StoredMessage[]> => {
    const rows = await deps.store.queue.recent(guildId, {
      limit: MAX_WINDOW_MESSAGES,
      after: { createdAt: new Date(since.getTime() - 1), messageId: '\uffff' },
    });
    return rows.filter((m) => visible.message(m));
  };
  /** How much each message counts: 1, or 1 + its reactions (members who opted out not counted). */
  const weights = async (
    guildId: string,
    rows: readonly StoredMessage[],
    byReactions: boolean | undefined,
  ) => {
    if (!byReactions) return (_m: StoredMessage) => 1;
    const counts = await reactionCountsOf(
      deps.store,
      guildId,
      rows.map((m) => m.messageId),
    );
    return (m: StoredMessage) => 1 + totalReactions(counts.get(m.messageId));
  };
  return {
    /**
     * Entities and keywords mentioned more in the last `hours` (24) than in the window before;
     * `weightByReactions` counts each message 1 + the reactions it received.
     */
    async topicTrends(input: z.input<typeof trendsSchema>): Promise<TopicTrend[]> {
      parseInput(trendsSchema, input, 'insights.topicTrends');
      const visible = await resolveVisibility(deps.access, input.guildId, input.audience);
      const hours = input.hours ?? 24;
      const now = deps.clock.now().getTime();
      const windowStart = new Date(now - hours * HOUR);
      const prevStart = new Date(now - 2 * hours * HOUR);
      const rows = await messagesSince(input.guildId, prevStart, visible);
      const weight = await weights(input.guildId, rows, input.weightByReactions);
      const current = new Map<string, number>();
      const previous = new Map<string, number>();
      const wordsSeen = new Set<string>();
      const docs = rows.map((m) => {
        const words = tokenize(m.content);
        for (const w of words) wordsSeen.add(w);
        return { m, words, terms: new Set(indexTerms(m.content)) };
      });
      // Entities: known entity aliases (single words and two-word names) found in the window's text.
      const candidates = new Set<string>(wordsSeen);
      for (const d of docs)
        for (let i = 0; i + 1 < d.words.length; i++) candidates.add(`${d.words[i]} ${d.words[i + 1]}`);
      const entityHits = await deps.store.graph.findEntitiesByAlias(
        input.guildId,
        [...candidates].slice(0, 20_000),
      );
      const entityByAlias = new Map(entityHits.map((h) => [h.alias, h.slug]));
      for (const d of docs) {
        const target = d.m.createdAt.getTime() >= windowStart.getTime() ? current : previous;
        const seen = new Set<string>();
        const joined = ` ${d.words.join(' ')} `;
        for (const [alias, slug] of entityByAlias)
          if (joined.includes(` ${normalizeAlias(alias)} `)) seen.add(`entity:${slug}`);
        for (const t of d.terms) if (t.length >= 3 && !/^\d+$/.test(t)) seen.add(`keyword:${t}`);
        for (const k of seen) target.set(k, (target.get(k) ?? 0) + weight(d.m));
      }
      const minCount = input.minCount ?? 2;
      return [...current.entries()]
        .filter(([, count]) => count >= minCount)
        .map(([key, count]) => {
          const prev = previous.get(key) ?? 0;
          const [kind, topic] = key.split(/:(.*)/s) as ['entity' | 'keyword', string];
          return {
            topic,
            kind,
            count,
            previous: prev,
            lift: Math.round(((count + 1) / (prev + 1)) * 1000) / 1000,
          };
        })
        .filter((t) => t.lift > 1)
        .sort(
          (a, b) =>
            b.lift * Math.log1p(b.count) - a.lift * Math.log1p(a.count) || (a.kind === 'entity' ? -1 : 1),
        )
        .slice(0, input.limit ?? 10);
    },

    /** Messages per UTC hour and weekday over the last `days` (30), with peak hours (optionally weighted by reactions). */
    async activity(input: z.input<typeof activitySchema>): Promise<ActivityPattern> {
      parseInput(activitySchema, input, 'insights.activity');
      const visible = await resolveVisibility(deps.access, input.guildId, input.audience);
      const since = new Date(deps.clock.now().getTime() - (input.days ?? 30) * 24 * HOUR);
      const rows = await messagesSince(input.guildId, since, visible);
      const weight = await weights(input.guildId, rows, input.weightByReactions);
      const byHour = new Array<number>(24).fill(0);
      const byWeekday = new Array<number>(7).fill(0);
      for (const m of rows) {
        byHour[m.createdAt.getUTCHours()] = (byHour[m.createdAt.getUTCHours()] ?? 0) + weight(m);
        byWeekday[m.createdAt.getUTCDay()] = (byWeekday[m.createdAt.getUTCDay()] ?? 0) + weight(m);
      }
      const peakHours = byHour
        .map((n, h) => [h, n] as const)
        .filter(([, n]) => n > 0)
        .sort((a, b) => b[1] - a[1] || a[0] - b[0])
        .slice(0, 3)
        .map(([h]) => h);
      const maxDay = Math.max(...byWeekday);
      return {
        messages: rows.length,
        byHour,
        byWeekday,
        peakHours,
        peakWeekday: maxDay > 0 ? byWeekday.indexOf(maxDay) : null,
      };
    },

    /** A member's stances from the graph: what they like or dislike, strongest first. */
    async preferences(input: z.input<typeof preferencesSchema>): Promise<Preference[]> {
      parseInput(preferencesSchema, input, 'insights.preferences');
      const visible = await resolveVisibility(deps.access, input.guildId, input.audience);
      const graph = visibleGraph(deps.store.graph, deps.store.facts, input.guildId, visible);
      const now = deps.clock.now();
      const rels = await graph.relationsOf(input.guildId, [{ type: 'user', id: input.userId }], 200);
      return rels
        .filter((r) => r.srcType === 'user' && r.srcId === input.userId)
        .map((r) => ({
          target: r.dstId,
          targetType: r.dstType,
          verb: r.verb,
          polarity: r.polarity,
          weight: effectiveRelationWeight(r.weight, r.updatedAt, now),
          evidenceFactIds: r.evidenceFactIds,
        }))
        .sort((a, b) => b.weight - a.weight)
        .slice(0, input.limit ?? 20);
    },
  };
}

export type InsightsApi = ReturnType<typeof createInsightsApi>;
