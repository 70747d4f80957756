import type { Entity, Link, NodeRef, Relation } from '@permafrost/core';
import {
  type EntityUpsert,
  GraphStoreBase,
  type GraphWrites,
  type LinksForNodesOptions,
  type RelationUpsert,
} from '@permafrost/core/store';
import type { AnyBulkWriteOperation } from 'mongodb';
import { findAny } from './find-any.js';
import { insertTolerant } from './insert-tolerant.js';
import type { MongoContext } from './mongo-context.js';
import { entityWrites, writeEntities } from './mongo-entities.js';
import { entitiesByAlias } from './mongo-entity-aliases.js';
import { factKey } from './mongo-fact-mapping.js';
import { factPasses } from './mongo-filters.js';
import { entityKey, fromEntityDoc, fromLinkDoc, toLinkDoc } from './mongo-graph-mapping.js';
import { PreparedGraph } from './mongo-graph-prepared.js';
import { applyGraphWrites } from './mongo-graph-writes.js';
import { finite, requireIds, requireString } from './mongo-keys.js';
import type { EntityDoc, FactDoc, LinkDoc } from './mongo-memory-docs.js';
import { MongoRelations } from './mongo-relations.js';
import { type RawDoc, raw } from './raw-doc.js';

export class MongoGraphStore extends GraphStoreBase {
  readonly #ctx: MongoContext;
  readonly #relations: MongoRelations;
  readonly #prepared = new PreparedGraph();

  constructor(ctx: MongoContext) {
    super();
    this.#ctx = ctx;
    this.#relations = new MongoRelations(ctx);
  }

  /** Insert-if-absent by natural key: an upsert that only sets fields on insert (no E11000 in transactions). */
  override async addLinks(links: readonly Link[]): Promise<void> {
    await this.#ctx.enter();
    const docs = new Map(links.map(toLinkDoc).map((d) => [d._id, d]));
    if (docs.size === 0) return;
    if (!this.#ctx.session()) {
      // Insert-if-absent as one unordered insert (duplicates are the links that exist): no
      // per-link upsert, which FerretDB runs as a scan of the collection each.
      this.#ctx.wrote('links');
      await insertTolerant(raw(this.#ctx.c.links), [...docs.values()] as unknown as RawDoc[]);
      return;
    }
    // In a transaction a duplicate-key error would abort it: upserts instead.
    const ops: AnyBulkWriteOperation<RawDoc>[] = [...docs.values()].map(({ _id, ...rest }) => ({
      updateOne: { filter: { _id }, update: { $setOnInsert: rest }, upsert: true },
    }));
    await this.#ctx.bulkUpsert(this.#ctx.c.links, ops);
  }

  /**
   * Links of each node whose fact passes `validity`, newest facts first. Facts are checked lazily in
   * id-descending chunks, so a node with many old links costs only the facts it returns.
   */
  override async linksForNodes(
    guildId: string,
    nodes: readonly NodeRef[],
    options: LinksForNodesOptions,
  ): Promise<Link[]> {
    await this.#ctx.enter();
    const g = requireString(guildId, 'guildId');
    const wanted = nodes.map((n) => ({
      type: requireString(n.type, 'node type'),
      id: requireString(n.id, 'node id'),
    }));
    const limit = Math.max(0, Math.floor(options.limitPerNode));
    if (wanted.length === 0 || limit === 0) return [];
    const docs = await findAny<LinkDoc>(
      this.#ctx,
      raw(this.#ctx.c.links),
      { guildId: { $eq: g } },
      wanted.map((n) => ({ nodeType: { $eq: n.type }, nodeId: { $eq: n.id } })),
    );
    const states = wanted.map((n) => ({
      links: docs
        .filter((l) => l.nodeType === n.type && l.nodeId === n.id)
        .sort((a, b) => (a.factId < b.factId ? 1 : a.factId > b.factId ? -1 : 0)),
      pos: 0,
      out: [] as LinkDoc[],
    }));
    const passes = new Map<string, boolean>();
    const filter = { guildId: g, validity: options.validity ?? 'active' } as const;
    for (;;) {
      const need = new Set<string>();
      for (const s of states) {
        const missing = limit - s.out.length;
        for (let i = s.pos; i < s.links.length && missing > 0 && i < s.pos + missing * 2; i++) {
          const factId = (s.links[i] as LinkDoc).factId;
          if (!passes.has(factId)) need.add(factId);
        }
      }
      if (need.size > 0) {
        const found = await this.#ctx.readFacts(
          g,
          [...need].map((id) => factKey(g, id)),
        );
        for (const id of need) {
          const f = found.get(factKey(g, id)) as FactDoc | undefined;
          passes.set(id, f !== undefined && factPasses(f, filter));
        }
      }
      let progressing = false;
      for (const s of states) {
        while (s.out.length < limit && s.pos < s.links.length) {
          const l = s.links[s.pos] as LinkDoc;
          const ok = passes.get(l.factId);
          if (ok === undefined) break;
          if (ok) s.out.push(l);
          s.pos++;
        }
        if (s.out.length < limit && s.pos < s.links.length) progressing = true;
      }
      if (!progressing) break;
    }
    return states.flatMap((s) => s.out.map(fromLinkDoc));
  }

  override async linksForFacts(guildId: string, factIds: readonly string[]): Promise<Link[]> {
    await this.#ctx.enter();
    const ids = requireIds(factIds, 'fact id');
    if (ids.length === 0) return [];
    const docs = await this.#ctx.c.links
      .find(
        { guildId: { $eq: requireString(guildId, 'guildId') }, factId: { $in: ids } },
        this.#ctx.readOpts(),
      )
      .toArray();
    return docs.map((d) => fromLinkDoc(d as LinkDoc));
  }

  override upsertRelation(input: RelationUpsert): Promise<Relation> {
    return this.#relations.upsert(input);
  }

  override async applyGraphWrites(writes: GraphWrites): Promise<void> {
    await this.#ctx.enter();
    await applyGraphWrites(
      this.#ctx,
      this.#relations,
      (links) => this.addLinks(links),
      writes,
      this.#prepared,
    );
  }

  /** Outside a transaction: the reads and the alias index of `writes` now (mongo-graph-prepared.ts). */
  override async prepareGraphWrites(writes: GraphWrites): Promise<void> {
    await this.#ctx.enter();
    if (this.#ctx.session()) return;
    await this.#prepared.prepare(this.#ctx, writes);
  }

  override relationsOf(
    guildId: string,
    nodes: readonly NodeRef[],
    limitPerNode: number,
  ): Promise<Relation[]> {
    return this.#relations.relationsOf(guildId, nodes, limitPerNode);
  }

  override relationsTouching(guildId: string, nodes: readonly NodeRef[]): Promise<Relation[]> {
    return this.#relations.touching(guildId, nodes);
  }

  override relationsCiting(guildId: string, factIds: readonly string[]): Promise<Relation[]> {
    return this.#relations.citing(guildId, factIds);
  }

  override dropEvidence(guildId: string, factIds: readonly string[], at: Date): Promise<number> {
    return this.#relations.dropEvidence(guildId, factIds, at);
  }

  override async upsertEntity(input: EntityUpsert): Promise<Entity> {
    await this.#ctx.enter();
    const stored = await writeEntities(this.#ctx, entityWrites([input]));
    return stored.get(entityKey(input.guildId, input.slug)) as Entity;
  }

  override async getEntities(guildId: string, slugs: readonly string[]): Promise<Entity[]> {
    await this.#ctx.enter();
    const g = requireString(guildId, 'guildId');
    const wanted = requireIds(slugs, 'slug');
    const found = await this.#ctx.readMany(
      this.#ctx.c.entities,
      wanted.map((s) => entityKey(g, s)),
    );
    return wanted.flatMap((s) => {
      const d = found.get(entityKey(g, s));
      return d ? [fromEntityDoc(d)] : [];
    });
  }

  override async findEntitiesByAlias(
    guildId: string,
    aliases: readonly string[],
  ): Promise<{ alias: string; slug: string }[]> {
    await this.#ctx.enter();
    const list = requireIds(aliases, 'alias');
    if (list.length === 0) return [];
    return entitiesByAlias(this.#ctx, requireString(guildId, 'guildId'), list);
  }

  override async bumpEntityFacts(guildId: string, slug: string, delta: number): Promise<void> {
    await this.#ctx.enter();
    const d = finite(delta, 'delta');
    await this.#ctx.guard.mutate(
      this.#ctx.c.entities,
      entityKey(requireString(guildId, 'guildId'), requireString(slug, 'slug')),
      (e) => (e ? { ...e, factCount: Math.max(0, e.factCount + d) } : null),
    );
  }

  override async linkEntityToUser(guildId: string, slug: string, userId: string | null): Promise<void> {
    await this.#ctx.enter();
    const user = userId === null ? null : requireString(userId, 'userId');
    await this.#ctx.guard.mutate(
      this.#ctx.c.entities,
      entityKey(requireString(guildId, 'guildId'), requireString(slug, 'slug')),
      (e) => (e ? { ...e, linkedUserId: user } : null),
    );
  }

  override async entitiesLinkedTo(guildId: string, userIds: readonly string[]): Promise<Entity[]> {
    await this.#ctx.enter();
    const ids = requireIds(userIds, 'userId');
    if (ids.length === 0) return [];
    const docs = await this.#ctx.c.entities
      .find(
        { guildId: { $eq: requireString(guildId, 'guildId') }, linkedUserId: { $in: ids } },
        { sort: { createdAt: 1, slug: 1 }, ...this.#ctx.readOpts() },
      )
      .toArray();
    return docs.map((d) => fromEntityDoc(d as EntityDoc));
  }
}
