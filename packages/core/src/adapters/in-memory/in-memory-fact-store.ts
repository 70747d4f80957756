import { ErrorCode, MemoryError } from '../../errors/index.js';
import type { Fact, FactHistoryEntry, FactPatch, Page } from '../../model/fact.js';
import type {
  FactFilter,
  FactPageOptions,
  ListFactsOptions,
  TextHit,
  UpdateFactOptions,
} from '../../ports/fact-store.js';
import { FactStoreBase } from '../../ports/port-bases.js';
import { indexTerms } from '../../text/analyze.js';
import { searchBm25 } from '../../text/bm25.js';
import { passesFilter } from './filters.js';
import { enter, key, type MemoryState } from './state.js';

const termsCache = new WeakMap<Fact, readonly string[]>();
function termsOf(fact: Fact): readonly string[] {
  let terms = termsCache.get(fact);
  if (!terms) {
    terms = indexTerms(fact.text);
    termsCache.set(fact, terms);
  }
  return terms;
}

function guildFacts(state: MemoryState, guildId: string): Fact[] {
  const out: Fact[] = [];
  for (const f of state.facts.values()) if (f.guildId === guildId) out.push(f);
  return out;
}

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

export class InMemoryFactStore extends FactStoreBase {
  readonly #state: MemoryState;

  constructor(state: MemoryState) {
    super();
    this.#state = state;
  }

  override async insert(facts: readonly Fact[]): Promise<void> {
    await enter(this.#state);
    const seen = new Set<string>();
    for (const f of facts) {
      const k = key(f.guildId, f.id);
      if (this.#state.facts.has(k) || seen.has(k))
        throw new MemoryError(ErrorCode.CONFLICT, 'a fact with this id already exists');
      seen.add(k);
    }
    for (const f of facts) this.#state.facts.set(key(f.guildId, f.id), f);
  }

  override async get(guildId: string, ids: readonly string[]): Promise<Fact[]> {
    await enter(this.#state);
    const out: Fact[] = [];
    for (const id of ids) {
      const f = this.#state.facts.get(key(guildId, id));
      if (f) out.push(f);
    }
    return out;
  }

  override async update(
    guildId: string,
    id: string,
    patch: FactPatch,
    options: UpdateFactOptions,
  ): Promise<Fact | null> {
    await enter(this.#state);
    const k = key(guildId, id);
    const current = this.#state.facts.get(k);
    if (!current) return null;
    if (options.expectedVersion !== undefined && current.version !== options.expectedVersion) return null;
    const next: Fact = { ...current, ...patch, version: current.version + 1, updatedAt: options.at };
    this.#state.facts.set(k, next);
    return next;
  }

  override async findByNormalizedText(
    guildId: string,
    subjectId: string | null,
    normalizedText: string,
  ): Promise<Fact | null> {
    await enter(this.#state);
    for (const f of this.#state.facts.values()) {
      if (
        f.guildId === guildId &&
        f.subjectId === subjectId &&
        f.normalizedText === normalizedText &&
        f.supersededById === null &&
        f.validUntil === null
      ) {
        return f;
      }
    }
    return null;
  }

  override async list(options: ListFactsOptions): Promise<Page<Fact>> {
    await enter(this.#state);
    const order = options.order ?? 'oldest';
    if (order === 'random' && options.cursor !== undefined) {
      throw new MemoryError(ErrorCode.SCHEMA_INVALID, 'random order cannot be paged with a cursor');
    }
    let items = guildFacts(this.#state, options.guildId).filter((f) => passesFilter(f, options));
    if (order === 'random') return { items: shuffle(items).slice(0, options.limit), nextCursor: null };
    items.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    if (order === 'newest') items.reverse();
    const cursor = options.cursor;
    if (cursor !== undefined)
      items = items.filter((f) => (order === 'newest' ? f.id < cursor : f.id > cursor));
    const page = items.slice(0, options.limit);
    const last = page[page.length - 1];
    return { items: page, nextCursor: items.length > options.limit && last ? last.id : null };
  }

  override async topStrength(filter: FactFilter, limit: number): Promise<Fact[]> {
    await enter(this.#state);
    return guildFacts(this.#state, filter.guildId)
      .filter((f) => passesFilter(f, filter))
      .sort(
        (a, b) =>
          b.strength - a.strength ||
          b.lastReinforcedAt.getTime() - a.lastReinforcedAt.getTime() ||
          (a.id < b.id ? -1 : 1),
      )
      .slice(0, limit);
  }

  override async searchText(filter: FactFilter, terms: readonly string[], limit: number): Promise<TextHit[]> {
    await enter(this.#state);
    if (terms.length === 0 || limit <= 0) return [];
    const all = guildFacts(this.#state, filter.guildId);
    const byId = new Map(all.map((f) => [f.id, f]));
    const docs = all.map((f) => ({ id: f.id, terms: termsOf(f) }));
    const candidates = docs.filter((d) => passesFilter(byId.get(d.id) as Fact, filter));
    const { hits, fullMatchScore } = searchBm25(docs, candidates, terms, limit);
    return hits.map((h) => ({ fact: byId.get(h.id) as Fact, score: h.score, fullMatchScore }));
  }

  override async touch(guildId: string, ids: readonly string[], at: Date): Promise<number> {
    await enter(this.#state);
    let n = 0;
    for (const id of ids) {
      const k = key(guildId, id);
      const f = this.#state.facts.get(k);
      if (!f) continue;
      this.#state.facts.set(k, { ...f, lastReinforcedAt: at });
      n++;
    }
    return n;
  }

  override async citing(guildId: string, messageIds: readonly string[]): Promise<Fact[]> {
    await enter(this.#state);
    const wanted = new Set(messageIds);
    return guildFacts(this.#state, guildId)
      .filter((f) => f.sources.some((s) => wanted.has(s.messageId)))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  override async statedBy(guildId: string, speakerId: string, page: FactPageOptions): Promise<Fact[]> {
    await enter(this.#state);
    return this.#page(guildId, page, (f) => f.attribution.speakerId === speakerId);
  }

  override async quoting(guildId: string, authorId: string, page: FactPageOptions): Promise<Fact[]> {
    await enter(this.#state);
    return this.#page(guildId, page, (f) => f.sources.some((s) => s.authorId === authorId));
  }

  /** Facts of the guild passing `pred`, in id order, after `page.afterId`, at most `page.limit`. */
  #page(guildId: string, page: FactPageOptions, pred: (f: Fact) => boolean): Fact[] {
    const after = page.afterId;
    return guildFacts(this.#state, guildId)
      .filter((f) => pred(f) && (after === undefined || f.id > after))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(0, Math.max(0, Math.floor(page.limit)));
  }

  override async countHistory(guildId: string, factIds: readonly string[]): Promise<number> {
    await enter(this.#state);
    let n = 0;
    for (const id of new Set(factIds)) n += this.#state.history.get(key(guildId, id))?.length ?? 0;
    return n;
  }

  override async appendHistory(entries: readonly FactHistoryEntry[]): Promise<void> {
    await enter(this.#state);
    for (const e of entries) {
      const k = key(e.guildId, e.factId);
      this.#state.history.set(k, [...(this.#state.history.get(k) ?? []), e]);
    }
  }

  override async history(guildId: string, factId: string): Promise<FactHistoryEntry[]> {
    await enter(this.#state);
    return [...(this.#state.history.get(key(guildId, factId)) ?? [])].sort(
      (a, b) => a.at.getTime() - b.at.getTime(),
    );
  }
}
