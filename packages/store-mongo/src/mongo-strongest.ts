import type { FactFilter } from '@permafrost/core/store';
import type { Collection, Document } from 'mongodb';
import { CORPUS_STATS_TTL_MS } from './keyword-ranking.js';
import type { MongoContext } from './mongo-context.js';
import { factPasses } from './mongo-filters.js';
import type { FactDoc } from './mongo-memory-docs.js';
import { STRENGTH_ORDER } from './mongo-schema.js';
import type { RawDoc } from './raw-doc.js';

/** What a kept ranking remembers of a fact: its key and what placed it (scope, strength, time). */
interface Ranked {
  readonly key: string;
  readonly subjectId: string | null;
  readonly strength: number;
  readonly reinforcedAt: number;
}

/**
 * One query of a scope: its ranking, when the answer came, and its documents for the callers that
 * waited for it (released once they resumed, so a kept entry holds the ranking only).
 */
interface ScopeRead {
  docs: FactDoc[] | null;
  readonly ranking: Ranked[];
  readonly at: number;
}

/** The fact read again still stands where the kept ranking placed it. */
function stillPlaced(d: FactDoc | undefined, r: Ranked, filter: FactFilter): d is FactDoc {
  return (
    d !== undefined &&
    factPasses(d, filter) &&
    d.subjectId === r.subjectId &&
    d.strength === r.strength &&
    d.lastReinforcedAt.getTime() === r.reinforcedAt
  );
}

/**
 * The `n` strongest facts of one equality alternative (`query`) of an active-only scope, on the
 * FerretDB plan.
 *
 * FerretDB sorts in Go after decoding every document of the scope: the server's 3 strongest facts
 * in a 10k-fact guild cost decoding its 400 server facts. So a scope's ranking (which facts, with
 * the strength and reinforcement time that placed them) is kept for `CORPUS_STATS_TTL_MS` while
 * this process does not write facts, as the keyword corpus size is, and a kept ranking is answered
 * by reading its facts again by `_id`. It is used only when every fact read again still passes
 * `filter`, has the same subject and still has that strength and time; otherwise the scope is
 * queried again. So a fact is never returned as it was (erased, superseded, reinforced, moved), and
 * another process's new, stronger fact shows up at most that late: the same lag as the keyword
 * channel's statistics, for a ranking input.
 */
export async function strongestOf(
  ctx: MongoContext,
  facts: Collection<RawDoc>,
  query: Document,
  filter: FactFilter,
  n: number,
): Promise<FactDoc[]> {
  const asked = Date.now();
  const queryScope = async (): Promise<ScopeRead> => {
    const docs = (await facts
      .find(query, { sort: STRENGTH_ORDER, limit: n, ...ctx.readOpts() })
      .toArray()) as FactDoc[];
    const ranking = docs.map((d) => ({
      key: d._id,
      subjectId: d.subjectId,
      strength: d.strength,
      reinforcedAt: d.lastReinforcedAt.getTime(),
    }));
    const read: ScopeRead = { docs, ranking, at: Date.now() };
    // Every caller awaiting this read resumes in a microtask, before this timer.
    setTimeout(() => {
      read.docs = null;
    }, 0).unref();
    return read;
  };
  const key = JSON.stringify(['strongest', query, n]);
  const kept = await ctx.recent(facts.collectionName, key, CORPUS_STATS_TTL_MS, queryScope);
  // Answered while this call waited (its own query, or one in flight it joined): current.
  if (kept.at >= asked && kept.docs) return kept.docs;
  const again = await ctx.readFacts(
    filter.guildId,
    kept.ranking.map((r) => r.key),
  );
  const docs: FactDoc[] = [];
  for (const r of kept.ranking) {
    const d = again.get(r.key);
    if (!stillPlaced(d, r, filter)) {
      ctx.forget(facts.collectionName, key);
      const requeried = await ctx.recent(facts.collectionName, key, CORPUS_STATS_TTL_MS, queryScope);
      // Another caller's ranking kept in between holds no documents: query for this one.
      return requeried.docs ?? (await queryScope()).docs ?? [];
    }
    docs.push(d);
  }
  // Every fact still has the values that placed it: the kept order stands.
  return docs;
}
