import { type Bm25Doc, type Bm25Search, searchBm25 } from '@permafrost/core/store';
import type { ClientSession, Collection, Document } from 'mongodb';
import type { MongoContext } from './mongo-context.js';
import type { RawDoc } from './raw-doc.js';

/**
 * How long a corpus size may be reused while this process does not write (other processes' writes
 * show up at most this late in BM25's document count and average length; matches are never stale).
 */
export const CORPUS_STATS_TTL_MS = 10_000;
/**
 * The same on FerretDB, where sizing a corpus decodes every document of the guild: past it, the
 * size is refreshed in the background while the previous one is still used (see `corpusStatsTtl`).
 */
export const FERRET_CORPUS_STATS_TTL_MS = 5 * 60_000;

/** The corpus-size TTL for this server. */
export function corpusStatsTtl(ctx: MongoContext): number {
  return ctx.ferretPlan ? FERRET_CORPUS_STATS_TTL_MS : CORPUS_STATS_TTL_MS;
}

/**
 * The documents holding any of `terms`. FerretDB pushes only equality filters down to its backend
 * (on PostgreSQL a jsonb containment, which also matches an array element) and answers `$in` by
 * decoding the whole collection, so there it sends one equality query per term, concurrently
 * (joining the same term's query already in flight); elsewhere one `$in` query on the multikey
 * index.
 */
export async function findMatching<D extends RawDoc>(
  ctx: MongoContext,
  coll: Collection<RawDoc>,
  filter: Document,
  terms: readonly string[],
): Promise<D[]> {
  if (!ctx.ferretPlan || ctx.session() || terms.length === 1)
    return (await coll
      .find(
        { ...filter, terms: terms.length === 1 ? { $eq: terms[0] } : { $in: [...terms] } },
        ctx.readOpts(),
      )
      .toArray()) as D[];
  const byId = new Map<string, D>();
  await ctx.each(terms, async (t) => {
    // Concurrent searches (a batch's candidates, several questions) mostly share their terms: a
    // term already being read with the same filter is joined (the documents are not changed).
    const docs = await ctx.shared(coll.collectionName, JSON.stringify(['match', filter, t]), () =>
      coll.find({ ...filter, terms: { $eq: t } }, ctx.readOpts()).toArray(),
    );
    for (const d of docs) byId.set(d._id, d as D);
  });
  return [...byId.values()];
}

/** Size of a keyword corpus: documents and total number of terms. */
export interface CorpusStats {
  readonly docs: number;
  readonly totalLength: number;
}

/**
 * Corpus size in one pass that both servers run: a histogram of `termCount` with a single `$sum`
 * accumulator (FerretDB computes only the first accumulator of a `$group`).
 */
export async function corpusStats(
  coll: Collection<RawDoc>,
  match: Document,
  options: { session?: ClientSession },
): Promise<CorpusStats> {
  const rows = await coll
    .aggregate<{ _id: number | null; n: number }>(
      [{ $match: match }, { $group: { _id: '$termCount', n: { $sum: 1 } } }],
      options,
    )
    .toArray();
  let docs = 0;
  let totalLength = 0;
  for (const r of rows) {
    docs += r.n;
    totalLength += (r._id ?? 0) * r.n;
  }
  return { docs, totalLength };
}

/**
 * BM25 exactly as core ranks it (and as SQLite FTS5 does), without reading the whole corpus:
 * `matching` holds every corpus document that contains a query term (their document frequencies
 * are exact), and the rest of the corpus only contributes its size, so it is stood in for by term-
 * less documents plus one padding document carrying the remaining length (a term no query has).
 * The full-match score comes from the same corpus.
 */
export function rankWithStats(
  stats: CorpusStats,
  matching: readonly Bm25Doc[],
  candidates: readonly Bm25Doc[],
  query: readonly string[],
  limit: number,
): Bm25Search {
  let pad = '\u0000pad';
  while (query.includes(pad)) pad += '\u0000';
  const restDocs = Math.max(0, stats.docs - matching.length);
  const restLength = Math.max(0, stats.totalLength - matching.reduce((n, d) => n + d.terms.length, 0));
  function* corpus(): Generator<Bm25Doc> {
    yield* matching;
    if (restDocs === 0) return;
    yield { id: '', terms: new Array<string>(restLength).fill(pad) };
    for (let i = 1; i < restDocs; i++) yield { id: '', terms: [] };
  }
  return searchBm25(corpus(), candidates, query, limit);
}

/** Query terms as data: strings only, deduplicated, for an `$in` list. */
export function termList(terms: readonly unknown[]): string[] {
  return [...new Set(terms.filter((t): t is string => typeof t === 'string'))];
}
