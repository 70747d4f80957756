// Extend these bases instead of implementing the ports directly: each declares the port's methods
// abstract and implements those that can be built from the others; a method added to a port in a
// later release comes with a default here, so a store that extends the base keeps compiling and
// working (kysely's DialectAdapterBase does the same for dialects).
// Bases of the record ports: facts, aliases, the graph.
import type { Fact } from '../model/fact.js';
import type { Alias } from '../model/graph.js';
import type { AliasStore } from './alias-store.js';
import type { FactStore } from './fact-store.js';
import type { GraphStore } from './graph-store.js';

export abstract class FactStoreBase implements FactStore {
  abstract insert(...args: Parameters<FactStore['insert']>): ReturnType<FactStore['insert']>;
  abstract get(...args: Parameters<FactStore['get']>): ReturnType<FactStore['get']>;
  abstract update(...args: Parameters<FactStore['update']>): ReturnType<FactStore['update']>;
  abstract findByNormalizedText(
    ...args: Parameters<FactStore['findByNormalizedText']>
  ): ReturnType<FactStore['findByNormalizedText']>;
  /**
   * Default: the duplicate check, then one insert, in the caller's transaction (a store whose
   * transactions are not atomic across processes must override it with a per-key lock).
   */
  async insertDistinct(
    ...[guildId, facts]: Parameters<FactStore['insertDistinct']>
  ): ReturnType<FactStore['insertDistinct']> {
    const stored = await this.findByNormalizedTexts(
      guildId,
      facts.map((f) => ({ subjectId: f.subjectId, normalizedText: f.normalizedText })),
    );
    return insertNew(facts, stored, (fresh) => this.insert(fresh));
  }
  /** Default: one `findByNormalizedText` after another (override with one query). */
  async findByNormalizedTexts(
    ...[guildId, keys]: Parameters<FactStore['findByNormalizedTexts']>
  ): ReturnType<FactStore['findByNormalizedTexts']> {
    const out = [];
    for (const k of keys) out.push(await this.findByNormalizedText(guildId, k.subjectId, k.normalizedText));
    return out;
  }
  abstract list(...args: Parameters<FactStore['list']>): ReturnType<FactStore['list']>;
  abstract topStrength(...args: Parameters<FactStore['topStrength']>): ReturnType<FactStore['topStrength']>;
  abstract searchText(...args: Parameters<FactStore['searchText']>): ReturnType<FactStore['searchText']>;
  abstract touch(...args: Parameters<FactStore['touch']>): ReturnType<FactStore['touch']>;
  abstract citing(...args: Parameters<FactStore['citing']>): ReturnType<FactStore['citing']>;
  abstract statedBy(...args: Parameters<FactStore['statedBy']>): ReturnType<FactStore['statedBy']>;
  abstract quoting(...args: Parameters<FactStore['quoting']>): ReturnType<FactStore['quoting']>;
  abstract appendHistory(
    ...args: Parameters<FactStore['appendHistory']>
  ): ReturnType<FactStore['appendHistory']>;
  /** Default: reads each fact's history (override with one count). */
  async countHistory(
    ...[guildId, factIds]: Parameters<FactStore['countHistory']>
  ): ReturnType<FactStore['countHistory']> {
    let n = 0;
    for (const id of new Set(factIds)) n += (await this.history(guildId, id)).length;
    return n;
  }
  abstract history(...args: Parameters<FactStore['history']>): ReturnType<FactStore['history']>;
}

export abstract class AliasStoreBase implements AliasStore {
  abstract upsert(...args: Parameters<AliasStore['upsert']>): ReturnType<AliasStore['upsert']>;
  abstract find(...args: Parameters<AliasStore['find']>): ReturnType<AliasStore['find']>;
  /** Default: one `find` per alias (override with a single read). */
  async findMany(
    ...[guildId, aliases, limitPerAlias]: Parameters<AliasStore['findMany']>
  ): ReturnType<AliasStore['findMany']> {
    const out = new Map<string, Alias[]>();
    for (const alias of new Set(aliases)) {
      const found = await this.find(guildId, alias, limitPerAlias);
      if (found.length > 0) out.set(alias, found);
    }
    return out;
  }
  abstract findByPrefix(
    ...args: Parameters<AliasStore['findByPrefix']>
  ): ReturnType<AliasStore['findByPrefix']>;
  abstract aliasesOf(...args: Parameters<AliasStore['aliasesOf']>): ReturnType<AliasStore['aliasesOf']>;
}

export abstract class GraphStoreBase implements GraphStore {
  abstract addLinks(...args: Parameters<GraphStore['addLinks']>): ReturnType<GraphStore['addLinks']>;
  abstract linksForNodes(
    ...args: Parameters<GraphStore['linksForNodes']>
  ): ReturnType<GraphStore['linksForNodes']>;
  abstract linksForFacts(
    ...args: Parameters<GraphStore['linksForFacts']>
  ): ReturnType<GraphStore['linksForFacts']>;
  abstract upsertRelation(
    ...args: Parameters<GraphStore['upsertRelation']>
  ): ReturnType<GraphStore['upsertRelation']>;
  /** Default: one `upsertEntity` after another, then each `upsertRelation`, then `addLinks`. */
  async applyGraphWrites(
    ...[writes]: Parameters<GraphStore['applyGraphWrites']>
  ): ReturnType<GraphStore['applyGraphWrites']> {
    for (const entity of writes.entities) await this.upsertEntity(entity);
    for (const relation of writes.relations) await this.upsertRelation(relation);
    if (writes.links.length > 0) await this.addLinks(writes.links);
  }
  /** Default: nothing to prepare (`applyGraphWrites` does all the work). */
  async prepareGraphWrites(
    ..._args: Parameters<GraphStore['prepareGraphWrites']>
  ): ReturnType<GraphStore['prepareGraphWrites']> {}
  abstract relationsOf(...args: Parameters<GraphStore['relationsOf']>): ReturnType<GraphStore['relationsOf']>;
  abstract relationsTouching(
    ...args: Parameters<GraphStore['relationsTouching']>
  ): ReturnType<GraphStore['relationsTouching']>;
  abstract relationsCiting(
    ...args: Parameters<GraphStore['relationsCiting']>
  ): ReturnType<GraphStore['relationsCiting']>;
  abstract dropEvidence(
    ...args: Parameters<GraphStore['dropEvidence']>
  ): ReturnType<GraphStore['dropEvidence']>;
  abstract upsertEntity(
    ...args: Parameters<GraphStore['upsertEntity']>
  ): ReturnType<GraphStore['upsertEntity']>;

  abstract getEntities(...args: Parameters<GraphStore['getEntities']>): ReturnType<GraphStore['getEntities']>;
  abstract findEntitiesByAlias(
    ...args: Parameters<GraphStore['findEntitiesByAlias']>
  ): ReturnType<GraphStore['findEntitiesByAlias']>;
  abstract bumpEntityFacts(
    ...args: Parameters<GraphStore['bumpEntityFacts']>
  ): ReturnType<GraphStore['bumpEntityFacts']>;
  abstract linkEntityToUser(
    ...args: Parameters<GraphStore['linkEntityToUser']>
  ): ReturnType<GraphStore['linkEntityToUser']>;
  abstract entitiesLinkedTo(
    ...args: Parameters<GraphStore['entitiesLinkedTo']>
  ): ReturnType<GraphStore['entitiesLinkedTo']>;
}

/**
 * The insert step of `insertDistinct`, given what is stored under each fact's key: inserts the
 * facts with nothing stored and no earlier fact of the same key in the list, and answers per fact.
 */
async function insertNew(
  facts: readonly Fact[],
  stored: readonly (Fact | null)[],
  insert: (fresh: readonly Fact[]) => Promise<void>,
): Promise<(Fact | null)[]> {
  const seen = new Map<string, Fact>();
  const fresh: Fact[] = [];
  const out = facts.map((f, i) => {
    const key = `${f.subjectId ?? ''}\u0000${f.normalizedText}`;
    const existing = stored[i] ?? seen.get(key) ?? null;
    if (!existing) {
      seen.set(key, f);
      fresh.push(f);
    }
    return existing;
  });
  if (fresh.length > 0) await insert(fresh);
  return out;
}
