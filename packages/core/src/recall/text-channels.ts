import { ChannelName } from '../model/enums.js';
import { queryTerms } from '../text/analyze.js';
import type { ChannelContext, ChannelList } from './channel-types.js';

/**
 * Vector channel: exact nearest neighbours of the query among the fact vectors in scope. The
 * store filters scope and activity, so there is no recency cap.
 */
export async function vectorChannel(ctx: ChannelContext, queryVector: Float32Array): Promise<ChannelList> {
  const f = ctx.filter;
  const hits = await ctx.deps.store.vectors.search({
    kind: 'fact',
    guildId: ctx.guildId,
    vector: queryVector,
    limit: ctx.limit,
    ...(f.subjectIds ? { subjectIds: f.subjectIds, includeServer: f.includeServer === true } : {}),
    ...(f.serverOnly ? { serverOnly: true } : {}),
    // Time travel looks at ended facts too; validity is checked when results materialise.
    activeOnly: ctx.validity === 'active',
  });
  // A non-positive cosine is no evidence of relevance.
  return {
    channel: ChannelName.VECTOR,
    hits: hits.filter((h) => h.score > 0).map((h) => ({ factId: h.id, score: h.score })),
  };
}

/**
 * Keyword channel: BM25 over the analysed terms of the query with OR semantics (a fact needs any
 * term, more and rarer terms rank higher). Terms are data, never query syntax.
 */
export async function keywordChannel(ctx: ChannelContext): Promise<ChannelList> {
  const terms = ctx.text === null ? [] : queryTerms(ctx.text);
  if (terms.length === 0) return { channel: ChannelName.KEYWORD, hits: [] };
  const hits = await ctx.deps.store.facts.searchText(
    { ...ctx.filter, validity: ctx.validity },
    terms,
    ctx.limit,
  );
  const fullMatchScore = hits[0]?.fullMatchScore;
  return {
    channel: ChannelName.KEYWORD,
    hits: hits.map((h) => ({ factId: h.fact.id, score: h.score, fact: h.fact })),
    ...(fullMatchScore !== undefined ? { fullMatchScore } : {}),
  };
}
