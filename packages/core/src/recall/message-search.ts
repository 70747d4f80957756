import { z } from 'zod';
import { type AccessDeps, resolveVisibility } from '../access/visibility.js';
import type { MemoryConfig } from '../config/schema.js';
import { jumpLink } from '../context/jump-link.js';
import { audienceSchema } from '../model/audience.js';
import { ChannelName, RecallWarning } from '../model/enums.js';
import type { StoredMessage } from '../model/message.js';
import type { Clock } from '../ports/clock.js';
import type { Embedder } from '../ports/embedder.js';
import type { Logger } from '../ports/logger.js';
import type { MemoryStore } from '../ports/memory-store.js';
import { queryTerms } from '../text/analyze.js';
import { checkInput, idField as id } from '../validation/index.js';
import { boostConversations } from './conversation-boost.js';
import { fusedScore } from './fusion.js';
import { lexicalDivisor } from './lexical-scale.js';
import { smoothScores } from './neighbor-smoothing.js';
import { neighbourChains, readsWindows, readWindows, windowsOfHits } from './neighbour-chains.js';
import { phraseMatch, queryPhrases, withPhrase } from './phrase-match.js';
import { MAX_QUERY_CHARS } from './recall-query.js';
import { relativeSemantic, semanticScaler } from './semantic-scale.js';
import { temporalMatch, timeWindows } from './time-expressions.js';

export interface MessageSearchDeps {
  readonly store: MemoryStore;
  readonly embedder: Embedder;
  readonly clock: Clock;
  readonly retrieval: MemoryConfig['retrieval'];
  readonly access: AccessDeps;
  isBot(userId: string): boolean;
  readonly logger?: Logger;
}

export const messageSearchSchema = z
  .object({
    guildId: id,
    text: z.string().min(1).max(100_000),
    limit: z.number().int().min(1).max(200).default(10),
    /** Messages of these authors are not returned (they still give context to their neighbours). */
    excludeAuthorIds: z.array(id).max(1000).default([]),
    /** Only messages of this channel. */
    channelId: id.optional(),
    /** Include bot-authored messages and the bot's own replies (off by default). */
    includeBotMessages: z.boolean().default(false),
    /** Only messages of channels this audience may see (see `access.requireAudience`). */
    audience: audienceSchema.nullish().transform((v) => v ?? null),
  })
  .strict();
export type MessageSearchInput = z.input<typeof messageSearchSchema>;

export interface MessageScoreComponents {
  readonly semantic: number;
  readonly lexical: number;
  readonly rrf: number;
  /** Match between the message time and a date the query names. */
  readonly temporal: number;
  /** Score received from neighbouring messages (already normalised). */
  readonly context: number;
}

export interface ScoredMessage {
  readonly message: StoredMessage;
  readonly score: number;
  readonly components: MessageScoreComponents;
  readonly matchedChannels: readonly ChannelName[];
  readonly url: string;
}

export interface MessageSearchResult {
  readonly messages: readonly ScoredMessage[];
  readonly warnings: readonly RecallWarning[];
  readonly degradedChannels: readonly ChannelName[];
}

export interface MessageSearch {
  /** Hybrid keyword + vector search over raw messages with neighbour smoothing. Never throws. */
  search(input: MessageSearchInput): Promise<MessageSearchResult>;
}

interface Hit {
  semantic: number;
  lexical: number;
  rrf: number;
  temporal: number;
  readonly channels: ChannelName[];
}

/**
 * conversation.search: keyword (BM25, OR of analysed terms) and vector (kind `message`, written by
 * the ingest workers) channels fused like recall (BM25 scaled as lexical-scale.ts says, cosine scaled by
 * `retrieval.semanticScale` (see semantic-scale.ts), reciprocal rank,
 * `retrieval.weights`) plus the phrase match (`retrieval.phraseWeight`, see phrase-match.ts), then
 * neighbour smoothing (`retrieval.neighborWeight`, `neighborWindow`, `neighborMaxGapMinutes`): a
 * message next to strong matches in the same channel gains a share of their score; then the
 * conversation boost (`retrieval.conversationWeight`, see conversation-boost.ts). Opted-out
 * authors' messages are neither returned nor used as context.
 */
export function createMessageSearch(deps: MessageSearchDeps): MessageSearch {
  return {
    async search(input) {
      const parsed = checkInput(messageSearchSchema, input, 'conversation.search');
      if (!parsed.ok) return { messages: [], warnings: [RecallWarning.QUERY_INVALID], degradedChannels: [] };
      try {
        return await runSearch(deps, parsed.data);
      } catch (error) {
        deps.logger?.({
          level: 'error',
          event: 'message_search.failed',
          data: { guildId: parsed.data.guildId },
          error,
        });
        return { messages: [], warnings: [RecallWarning.STORE_UNAVAILABLE], degradedChannels: [] };
      }
    },
  };
}

async function runSearch(
  deps: MessageSearchDeps,
  q: z.output<typeof messageSearchSchema>,
): Promise<MessageSearchResult> {
  const r = deps.retrieval;
  const { conversation, vectors, consent } = deps.store;
  const text = q.text.slice(0, MAX_QUERY_CHARS);
  const terms = queryTerms(text);
  const visibility = resolveVisibility(deps.access, q.guildId, q.audience);
  // Asked first: a store that hands it to another thread (SQLite) starts it before the vector pass.
  // The windows around keyword hits may come with them (read in the store's snapshot of the hits).
  const windowsAround = readsWindows(deps) ? { windowsAround: r.neighborWindow } : {};
  const keywordSearch =
    terms.length === 0
      ? Promise.resolve([])
      : conversation.searchText(q.guildId, terms, r.poolSize, windowsAround);
  const vectorSearch = deps.embedder.embed([text]).then(([vec]) => {
    if (!vec) throw new Error('embedder returned no vector');
    return vectors.search({ kind: 'message', guildId: q.guildId, vector: vec, limit: r.poolSize });
  });
  // The vector hits' rows and windows are read while the keyword search may still be running.
  const vectorRows = vectorSearch.then((found) => {
    const ids = found.filter((v) => v.score > 0).map((v) => v.id);
    return ids.length > 0 ? conversation.getMessages(q.guildId, ids) : [];
  });
  const ahead = vectorRows.then(
    (rows) => readWindows(deps, q.guildId, rows),
    () => new Map(),
  );
  const [keyword, vector, optedOutList, rows] = await Promise.allSettled([
    keywordSearch,
    vectorSearch,
    consent.optedOutUsers(q.guildId),
    vectorRows,
  ]);
  if (optedOutList.status === 'rejected') throw optedOutList.reason;
  const optedOut = new Set(optedOutList.value);
  const visible = await visibility;
  const warnings = new Set<RecallWarning>(visible.warning ? [visible.warning] : []);
  const degraded: ChannelName[] = [];
  const hits = new Map<string, Hit>();
  const messages = new Map<string, StoredMessage>();
  const hit = (messageId: string) => {
    let h = hits.get(messageId);
    if (!h) {
      h = { semantic: 0, lexical: 0, rrf: 0, temporal: 0, channels: [] };
      hits.set(messageId, h);
    }
    return h;
  };
  if (keyword.status === 'fulfilled') {
    const best = lexicalDivisor(
      Math.max(0, ...keyword.value.map((k) => k.score)),
      keyword.value[0]?.fullMatchScore,
      r.lexicalFloor,
    );
    keyword.value.forEach((k, rank) => {
      const h = hit(k.message.messageId);
      h.lexical = best > 0 ? k.score / best : 0;
      h.rrf += 1 / (r.rrfK + rank + 1);
      h.channels.push(ChannelName.KEYWORD);
      messages.set(k.message.messageId, k.message);
    });
  } else degraded.push(ChannelName.KEYWORD);
  if (vector.status === 'fulfilled') {
    const positive = vector.value.filter((v) => v.score > 0);
    const semantic = semanticScaler(
      positive.map((v) => v.score),
      relativeSemantic(r.semanticScale, deps.embedder),
    );
    positive.forEach((v, rank) => {
      const h = hit(v.id);
      h.semantic = semantic(v.score);
      h.rrf += 1 / (r.rrfK + rank + 1);
      h.channels.push(ChannelName.VECTOR);
    });
  } else degraded.push(ChannelName.VECTOR);
  for (const [channel, s] of [
    [ChannelName.KEYWORD, keyword],
    [ChannelName.VECTOR, vector],
  ] as const) {
    if (s.status !== 'rejected') continue;
    warnings.add(RecallWarning.DEGRADED_CHANNEL);
    deps.logger?.({
      level: 'warn',
      event: 'message_search.channel_failed',
      data: { channel },
      error: s.reason,
    });
  }
  if (vector.status === 'fulfilled') {
    if (rows.status === 'rejected') throw rows.reason;
    for (const m of rows.value) if (!messages.has(m.messageId)) messages.set(m.messageId, m);
  }
  // Hidden messages are neither returned nor used as context for their neighbours.
  const usable = (m: StoredMessage) =>
    m.guildId === q.guildId &&
    m.rawStored &&
    m.kind !== 'session' &&
    !optedOut.has(m.authorId) &&
    visible.message(m);
  const bestRrf = Math.max(0, ...[...hits.values()].map((h) => h.rrf));
  const windows = timeWindows(text, deps.clock.now());
  const active = { entity: false, strength: false, temporal: windows.length > 0 };
  const phrases = r.phraseWeight > 0 ? queryPhrases(text) : new Set<string>();
  const base = new Map<string, number>();
  for (const [messageId, h] of hits) {
    const m = messages.get(messageId);
    if (!m || !usable(m)) continue;
    h.rrf = bestRrf > 0 ? h.rrf / bestRrf : 0;
    h.temporal = temporalMatch(m.createdAt, windows);
    const c = {
      semantic: h.semantic,
      lexical: h.lexical,
      entity: 0,
      strength: 0,
      rrf: h.rrf,
      temporal: h.temporal,
    };
    // As in recall: only a keyword hit can hold a query phrase; vector-only hits are not analysed.
    const phrase = phrases.size > 0 && h.lexical > 0 ? phraseMatch(phrases, m.content) : 0;
    base.set(messageId, withPhrase(fusedScore(c, r.weights, active), phrase, r.phraseWeight));
  }
  const withHits = keyword.status === 'fulfilled' ? windowsOfHits(keyword.value) : new Map();
  const known = ahead.then((read) => (read === null ? null : new Map([...withHits, ...read])));
  const chains = await neighbourChains(deps, q.guildId, base, messages, known);
  for (const chain of chains)
    for (const m of chain) if (!messages.has(m.messageId)) messages.set(m.messageId, m);
  const smoothed = smoothScores(
    base,
    chains.map((c) => c.filter(usable)),
    {
      weight: r.neighborWeight,
      window: r.neighborWindow,
      maxGapMs: r.neighborMaxGapMinutes * 60_000,
    },
  );
  const final = boostConversations(
    smoothed.scores,
    messages,
    r.conversationWeight,
    r.neighborMaxGapMinutes * 60_000,
  );
  const excluded = new Set(q.excludeAuthorIds);
  const results: ScoredMessage[] = [];
  for (const [messageId, score] of final) {
    const m = messages.get(messageId);
    if (!m || !usable(m) || excluded.has(m.authorId)) continue;
    if (q.channelId !== undefined && m.channelId !== q.channelId) continue;
    if (!q.includeBotMessages && (m.authorIsBot || m.kind === 'reply' || deps.isBot(m.authorId))) continue;
    const h = hits.get(messageId);
    results.push({
      message: m,
      score: Math.round(score * 1e6) / 1e6,
      components: {
        semantic: h?.semantic ?? 0,
        lexical: h?.lexical ?? 0,
        rrf: h?.rrf ?? 0,
        temporal: h?.temporal ?? 0,
        context: Math.round((smoothed.context.get(messageId) ?? 0) * 1e6) / 1e6,
      },
      matchedChannels: h?.channels ?? [],
      url: jumpLink(m.guildId, m.channelId, m.messageId),
    });
  }
  results.sort(
    (a, b) =>
      b.score - a.score ||
      b.message.createdAt.getTime() - a.message.createdAt.getTime() ||
      (a.message.messageId < b.message.messageId ? -1 : 1),
  );
  return { messages: results.slice(0, q.limit), warnings: [...warnings], degradedChannels: degraded };
}
