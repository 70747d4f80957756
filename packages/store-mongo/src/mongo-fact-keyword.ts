import type { FactFilter } from '@permafrost/core/store';
import { Bm25Corpus, type Bm25Doc, type Bm25Search, searchBm25In } from '@permafrost/core/store';
import type { Collection, Document } from 'mongodb';
import { type CorpusStats, corpusStats, corpusStatsTtl, findMatching } from './keyword-ranking.js';
import type { MongoContext } from './mongo-context.js';
import { factAlternatives, factPasses, factQuery } from './mongo-filters.js';
import type { FactDoc } from './mongo-memory-docs.js';
import type { RawDoc } from './raw-doc.js';

/**
 * Keyword search over a guild's facts: BM25 of `query` (as core and SQLite FTS5 rank it) over the
 * facts in the filter's scope that hold one of `terms` (the query's distinct terms). Only those
 * facts are read. What BM25 needs of the rest of the guild is counted, not read: the guild's size
 * (`corpusStats`) and, per term, how many of its facts hold it (any validity, as FTS5 counts its
 * whole index). Both counts may be reused while this process does not write facts, for as long as
 * a corpus size may (`corpusStatsTtl`): a member's keyword search then reads that member's
 * matching facts, not every fact of the guild that shares a word with the query. The documents
 * matched are never stale.
 */
export async function searchFactTerms(
  ctx: MongoContext,
  facts: Collection<RawDoc>,
  filter: FactFilter,
  terms: readonly string[],
  query: readonly string[],
  limit: number,
): Promise<{ readonly docs: ReadonlyMap<string, FactDoc>; readonly ranked: Bm25Search }> {
  const guild = { guildId: { $eq: filter.guildId } };
  const [found, stats, counts] = await ctx.all(
    () => inScope(ctx, facts, filter, terms),
    () =>
      ctx.lagging('facts', `stats|${filter.guildId}`, corpusStatsTtl(ctx), () =>
        corpusStats(facts, guild, ctx.opts()),
      ),
    () =>
      ctx.each(terms, (t) =>
        ctx.lagging('facts', JSON.stringify(['docsWith', filter.guildId, t]), corpusStatsTtl(ctx), () =>
          facts.countDocuments({ ...guild, terms: { $eq: t } }, ctx.opts()),
        ),
      ),
  );
  const docs = new Map<string, FactDoc>();
  for (const d of found) if (factPasses(d, filter)) docs.set(d.id, d);
  const candidates: Bm25Doc[] = [...docs.values()].map((d) => ({ id: d.id, terms: d.terms }));
  return { docs, ranked: searchBm25In(corpusOf(stats, terms, counts, candidates), candidates, query, limit) };
}

/**
 * The facts of the scope holding any term, with every field. FerretDB serves only equality filters
 * from its backend: there, one query per (member or server, term), concurrently (`findMatching`,
 * which joins the same query already in flight); a scope it cannot split that way (the whole
 * guild, or validity other than active) is read by term with the guild alone and filtered here.
 * Elsewhere one query with the scope and an `$in` over the multikey index.
 */
async function inScope(
  ctx: MongoContext,
  facts: Collection<RawDoc>,
  filter: FactFilter,
  terms: readonly string[],
): Promise<FactDoc[]> {
  const ferret = ctx.ferretPlan && !ctx.session();
  if (!ferret) {
    const query = {
      ...factQuery(filter),
      terms: terms.length === 1 ? { $eq: terms[0] } : { $in: [...terms] },
    };
    return (await facts.find(query, ctx.readOpts()).toArray()) as FactDoc[];
  }
  const alts = factAlternatives(filter);
  const base: Document = alts
    ? factQuery({ guildId: filter.guildId, validity: 'active' })
    : { guildId: { $eq: filter.guildId } };
  const byId = new Map<string, FactDoc>();
  const lists = await Promise.all(
    (alts ?? [{}]).map((alt) => findMatching<FactDoc>(ctx, facts, { ...base, ...alt }, terms)),
  );
  for (const list of lists) for (const d of list) byId.set(d._id, d);
  return [...byId.values()];
}

/**
 * The corpus BM25 scores against. Counts reused from before another process's writes can lag the
 * facts just read: a term is held by at least the candidates that hold it, and the guild has at
 * least as many facts as any term, so a lagging count never yields a score a live one could not.
 */
function corpusOf(
  stats: CorpusStats,
  terms: readonly string[],
  counts: readonly number[],
  candidates: readonly Bm25Doc[],
): Bm25Corpus {
  const docsWith = new Map<string, number>();
  terms.forEach((t, i) => {
    const held = candidates.filter((c) => c.terms.includes(t)).length;
    docsWith.set(t, Math.max(counts[i] ?? 0, held));
  });
  const docs = Math.max(stats.docs, candidates.length, ...docsWith.values());
  const length = candidates.reduce((n, c) => n + c.terms.length, 0);
  return Bm25Corpus.fromCounts({ docs, totalLength: Math.max(stats.totalLength, length), docsWith });
}
