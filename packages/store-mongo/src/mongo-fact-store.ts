import {
  ErrorCode,
  type Fact,
  type FactHistoryEntry,
  type FactPatch,
  MemoryError,
  type Page,
} from '@permafrost/core';
import type {
  FactFilter,
  FactPageOptions,
  ListFactsOptions,
  NormalizedTextKey,
  TextHit,
  UpdateFactOptions,
} from '@permafrost/core/store';
import { FactStoreBase } from '@permafrost/core/store';
import type { Document } from 'mongodb';
import { isDuplicateKey } from './insert-tolerant.js';
import { termList } from './keyword-ranking.js';
import type { MongoContext } from './mongo-context.js';
import { searchFactTerms } from './mongo-fact-keyword.js';
import {
  applyPatch,
  factKey,
  fromFactDoc,
  fromHistoryDoc,
  toFactDoc,
  toHistoryDoc,
} from './mongo-fact-mapping.js';
import { byStrength, countHistory, factPage, sample } from './mongo-fact-pages.js';
import { findByText, findByTexts, textLockKeys } from './mongo-fact-texts.js';
import { factAlternatives, factQuery } from './mongo-filters.js';
import { newEpoch, requireId, requireIds, requireString, validDate } from './mongo-keys.js';
import type { FactDoc, HistoryDoc } from './mongo-memory-docs.js';
import { STRENGTH_ORDER } from './mongo-schema.js';
import { strongestOf } from './mongo-strongest.js';
import { raw } from './raw-doc.js';
import { SeenFacts } from './seen-facts.js';

const conflict = () => new MemoryError(ErrorCode.CONFLICT, 'a fact with this id already exists');

export class MongoFactStore extends FactStoreBase {
  readonly #ctx: MongoContext;
  readonly #seen = new SeenFacts();
  /** Notes a document read outside a transaction (see SeenFacts). */
  readonly #saw = (doc: FactDoc) => {
    if (!this.#ctx.session()) this.#seen.note([doc]);
  };

  constructor(ctx: MongoContext) {
    super();
    this.#ctx = ctx;
  }

  override async insert(facts: readonly Fact[]): Promise<void> {
    await this.#ctx.enter();
    const docs = facts.map((f) => toFactDoc(f));
    const ids = docs.map((d) => d._id);
    if (new Set(ids).size !== ids.length) throw conflict();
    this.#ctx.wrote('facts');
    // Outside a transaction no read first: the `_id` is the natural key, so the ordered insert
    // itself reports an existing fact (E11000), and what this call inserted before it is removed
    // again below. Inside one (a single `$in` read) nothing is written on a conflict.
    if (this.#ctx.session() && (await this.#ctx.readMany(this.#ctx.c.facts, ids)).size > 0) throw conflict();
    const stamped = docs.map((d) => ({ ...d, ep: newEpoch() }));
    try {
      if (stamped.length > 0)
        await this.#ctx.c.facts.insertMany(stamped, { ordered: true, ...this.#ctx.opts() });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      if (!this.#ctx.session()) {
        // Lost a race with another writer: remove what this call inserted, then report the conflict.
        const mine = stamped.map((d) => ({ _id: d._id, ep: d.ep }));
        await this.#ctx.each(mine, (d) => raw(this.#ctx.c.facts).deleteOne(d));
      }
      throw new MemoryError(ErrorCode.CONFLICT, 'a fact with this id already exists', { cause: error });
    }
  }

  override async get(guildId: string, ids: readonly string[]): Promise<Fact[]> {
    await this.#ctx.enter();
    const g = requireString(guildId, 'guildId');
    const wanted = requireIds(ids, 'fact id');
    const found = await this.#ctx.readFacts(
      g,
      wanted.map((id) => factKey(g, id)),
    );
    const out: Fact[] = [];
    for (const id of wanted) {
      const d = found.get(factKey(g, id));
      if (d && d.guildId === g) {
        this.#saw(d);
        out.push(fromFactDoc(d));
      }
    }
    return out;
  }

  override async update(
    guildId: string,
    id: string,
    patch: FactPatch,
    options: UpdateFactOptions,
  ): Promise<Fact | null> {
    await this.#ctx.enter();
    const at = validDate(options.at, 'at');
    const key = factKey(requireString(guildId, 'guildId'), requireString(id, 'fact id'));
    // A fact read moments ago (reconcile's target) is not read again: at the expected version, or
    // as last seen for an update that expects none; nor one this store has just written (a
    // reinforcement and the end of the same fact in one commit). A stale one costs a retry from a
    // fresh read.
    const known = this.#seen.known(key, options.expectedVersion);
    const outcome = await this.#ctx.guard.mutate(
      this.#ctx.c.facts,
      key,
      (current) => {
        if (!current) return null;
        if (options.expectedVersion !== undefined && current.version !== options.expectedVersion) return null;
        const next = applyPatch(fromFactDoc(current), patch);
        return toFactDoc({ ...next, version: current.version + 1, updatedAt: at });
      },
      { reuseWritten: true, ...(known ? { known } : {}) },
    );
    this.#seen.wrote(key, outcome.changed && !this.#ctx.session() ? outcome.after : null);
    return outcome.changed && outcome.after ? fromFactDoc(outcome.after) : null;
  }

  override async findByNormalizedText(
    guildId: string,
    subjectId: string | null,
    normalizedText: string,
  ): Promise<Fact | null> {
    await this.#ctx.enter();
    return findByText(this.#ctx, guildId, { subjectId, normalizedText }, this.#saw);
  }

  override async insertDistinct(guildId: string, facts: readonly Fact[]): Promise<(Fact | null)[]> {
    await this.#ctx.enter();
    const g = requireString(guildId, 'guildId');
    if (facts.some((f) => f.guildId !== g))
      throw new MemoryError(ErrorCode.SCHEMA_INVALID, 'insertDistinct takes the facts of one guild');
    // Without a lock the check and the insert are two steps: two processes could both find
    // nothing and both insert (FerretDB has no transactions; a MongoDB transaction does not
    // conflict on rows that do not exist yet). One key per (subject, text) serialises them.
    return this.#ctx.guard.withKeys('fact_text', textLockKeys(g, facts), () =>
      super.insertDistinct(g, facts),
    );
  }

  override async findByNormalizedTexts(
    guildId: string,
    keys: readonly NormalizedTextKey[],
  ): Promise<(Fact | null)[]> {
    await this.#ctx.enter();
    return findByTexts(this.#ctx, guildId, keys, this.#saw);
  }

  override async list(options: ListFactsOptions): Promise<Page<Fact>> {
    await this.#ctx.enter();
    const order = options.order ?? 'oldest';
    if (order === 'random' && options.cursor !== undefined)
      throw new MemoryError(ErrorCode.SCHEMA_INVALID, 'random order cannot be paged with a cursor');
    const limit = Math.max(0, Math.floor(options.limit));
    const query = factQuery(options);
    const facts = raw(this.#ctx.c.facts);
    if (order === 'random') {
      const ids = await facts.find(query, { projection: { _id: 1 }, ...this.#ctx.readOpts() }).toArray();
      const picked = sample(
        ids.map((d) => d._id as string),
        limit,
      );
      const docs = await this.#ctx.readMany(this.#ctx.c.facts, picked);
      return {
        items: picked.flatMap((k) => (docs.has(k) ? [fromFactDoc(docs.get(k) as FactDoc)] : [])),
        nextCursor: null,
      };
    }
    const dir = order === 'newest' ? -1 : 1;
    const paged: Document =
      options.cursor === undefined
        ? query
        : { $and: [query, { id: { [dir === 1 ? '$gt' : '$lt']: requireString(options.cursor, 'cursor') } }] };
    const docs = (await facts
      .find(paged, { sort: { id: dir }, limit: limit + 1, ...this.#ctx.readOpts() })
      .toArray()) as FactDoc[];
    const page = docs.slice(0, limit).map(fromFactDoc);
    const last = page[page.length - 1];
    return { items: page, nextCursor: docs.length > limit && last ? last.id : null };
  }

  override async topStrength(filter: FactFilter, limit: number): Promise<Fact[]> {
    await this.#ctx.enter();
    if (limit <= 0) return [];
    const n = Math.floor(limit);
    const facts = raw(this.#ctx.c.facts);
    const alts = this.#ctx.ferretPlan && !this.#ctx.session() ? factAlternatives(filter) : null;
    if (alts) {
      // FerretDB: one equality query per subject (index-served), concurrently, merged here; each
      // scope's ranking is kept for a while (mongo-strongest.ts).
      const base = factQuery({
        guildId: filter.guildId,
        ...(filter.validity ? { validity: filter.validity } : {}),
      });
      const lists = await Promise.all(
        alts.map((alt) => strongestOf(this.#ctx, facts, { ...base, ...alt }, filter, n)),
      );
      // Disjoint lists: one subject each, and a kept list is used only while its subjects hold.
      return lists.flat().sort(byStrength).slice(0, n).map(fromFactDoc);
    }
    const docs = (await facts
      .find(factQuery(filter), { sort: STRENGTH_ORDER, limit: n, ...this.#ctx.readOpts() })
      .toArray()) as FactDoc[];
    return docs.map(fromFactDoc);
  }

  override async searchText(filter: FactFilter, terms: readonly string[], limit: number): Promise<TextHit[]> {
    await this.#ctx.enter();
    const list = termList(terms);
    if (list.length === 0 || limit <= 0) return [];
    const scoped = { ...filter, guildId: requireString(filter.guildId, 'guildId') };
    const { docs, ranked } = await searchFactTerms(
      this.#ctx,
      raw(this.#ctx.c.facts),
      scoped,
      list,
      terms,
      limit,
    );
    return ranked.hits.map((h) => ({
      fact: fromFactDoc(docs.get(h.id) as FactDoc),
      score: h.score,
      fullMatchScore: ranked.fullMatchScore,
    }));
  }

  override async touch(guildId: string, ids: readonly string[], at: Date): Promise<number> {
    await this.#ctx.enter();
    const g = requireString(guildId, 'guildId');
    const when = validDate(at, 'at');
    const keys = requireIds(ids, 'fact id').map((id) => factKey(g, id));
    const out = await this.#ctx.guard.mutateMany(this.#ctx.c.facts, keys, (current) =>
      current ? { ...current, lastReinforcedAt: when } : null,
    );
    for (const k of keys) this.#seen.wrote(k, this.#ctx.session() ? null : (out.get(k)?.after ?? null));
    return keys.filter((k) => out.get(k)?.changed).length;
  }

  override async appendHistory(entries: readonly FactHistoryEntry[]): Promise<void> {
    await this.#ctx.enter();
    const docs = entries.map(toHistoryDoc);
    if (docs.length > 0) await this.#ctx.c.history.insertMany(docs, { ordered: true, ...this.#ctx.opts() });
  }

  override async citing(guildId: string, messageIds: readonly string[]): Promise<Fact[]> {
    await this.#ctx.enter();
    const g = requireString(guildId, 'guildId');
    const ids = requireIds(messageIds, 'message id');
    if (ids.length === 0) return [];
    const docs = await this.#ctx.c.facts
      .find(
        { guildId: { $eq: g }, 'sources.messageId': { $in: ids } },
        { sort: { id: 1 }, ...this.#ctx.readOpts() },
      )
      .toArray();
    return docs.map((d) => fromFactDoc(d as FactDoc));
  }

  override async statedBy(guildId: string, speakerId: string, page: FactPageOptions): Promise<Fact[]> {
    await this.#ctx.enter();
    const speaker = requireString(speakerId, 'speakerId');
    return factPage(this.#ctx, guildId, { 'attribution.speakerId': { $eq: speaker } }, page);
  }

  override async quoting(guildId: string, authorId: string, page: FactPageOptions): Promise<Fact[]> {
    await this.#ctx.enter();
    const author = requireString(authorId, 'authorId');
    return factPage(this.#ctx, guildId, { 'sources.authorId': { $eq: author } }, page);
  }

  override async countHistory(guildId: string, factIds: readonly string[]): Promise<number> {
    await this.#ctx.enter();
    return countHistory(this.#ctx, guildId, factIds);
  }

  override async history(guildId: string, factId: string): Promise<FactHistoryEntry[]> {
    await this.#ctx.enter();
    const docs = await this.#ctx.c.history
      .find(
        {
          guildId: { $eq: requireString(guildId, 'guildId') },
          factId: { $eq: requireId(factId, 'fact id') },
        },
        { sort: { at: 1, _id: 1 }, ...this.#ctx.readOpts() },
      )
      .toArray();
    return docs.map((d) => fromHistoryDoc(d as HistoryDoc));
  }
}
