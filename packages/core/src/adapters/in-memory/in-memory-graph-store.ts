import { mergeEntity, newEntity } from '../../model/entity-rules.js';
import type { Entity, Link, NodeRef, Relation } from '../../model/graph.js';
import { newRelation, reinforceRelation } from '../../model/relation-rules.js';
import type { EntityUpsert, LinksForNodesOptions, RelationUpsert } from '../../ports/graph-store.js';
import { GraphStoreBase } from '../../ports/port-bases.js';
import { passesValidity } from './filters.js';
import { enter, key, type MemoryState, type StoredRelation } from './state.js';

const linkKey = (l: Link) => key(l.guildId, l.factId, l.nodeType, l.nodeId, l.kind);
const sameNode = (type: string, id: string, n: NodeRef) => n.type === type && n.id === id;
const byWeight = (a: Relation, b: Relation) =>
  b.weight - a.weight || b.updatedAt.getTime() - a.updatedAt.getTime();

function strip(r: StoredRelation): Relation {
  const { rowId: _rowId, ...rest } = r;
  return rest;
}

export class InMemoryGraphStore extends GraphStoreBase {
  readonly #state: MemoryState;

  constructor(state: MemoryState) {
    super();
    this.#state = state;
  }

  override async addLinks(links: readonly Link[]): Promise<void> {
    await enter(this.#state);
    for (const l of links) if (!this.#state.links.has(linkKey(l))) this.#state.links.set(linkKey(l), l);
  }

  override async linksForNodes(
    guildId: string,
    nodes: readonly NodeRef[],
    options: LinksForNodesOptions,
  ): Promise<Link[]> {
    await enter(this.#state);
    const out: Link[] = [];
    for (const node of nodes) {
      const matches: Link[] = [];
      for (const l of this.#state.links.values()) {
        if (l.guildId !== guildId || !sameNode(l.nodeType, l.nodeId, node)) continue;
        const fact = this.#state.facts.get(key(guildId, l.factId));
        if (fact && passesValidity(fact, options.validity)) matches.push(l);
      }
      matches.sort((a, b) => (a.factId < b.factId ? 1 : a.factId > b.factId ? -1 : 0));
      out.push(...matches.slice(0, options.limitPerNode));
    }
    return out;
  }

  override async linksForFacts(guildId: string, factIds: readonly string[]): Promise<Link[]> {
    await enter(this.#state);
    const wanted = new Set(factIds);
    return [...this.#state.links.values()].filter((l) => l.guildId === guildId && wanted.has(l.factId));
  }

  override async upsertRelation(input: RelationUpsert): Promise<Relation> {
    await enter(this.#state);
    const existing = this.#activeRelation(input);
    if (existing) {
      const next: StoredRelation = { ...existing, ...reinforceRelation(existing, input) };
      this.#state.relations.set(existing.rowId, next);
      return strip(next);
    }
    const created: StoredRelation = { rowId: this.#state.nextRelationRow++, ...newRelation(input) };
    this.#state.relations.set(created.rowId, created);
    return strip(created);
  }

  override async relationsOf(
    guildId: string,
    nodes: readonly NodeRef[],
    limitPerNode: number,
  ): Promise<Relation[]> {
    await enter(this.#state);
    const seen = new Set<number>();
    const out: Relation[] = [];
    for (const node of nodes) {
      const touching = this.#active(guildId)
        .filter((r) => sameNode(r.srcType, r.srcId, node) || sameNode(r.dstType, r.dstId, node))
        .sort(byWeight)
        .slice(0, limitPerNode);
      for (const r of touching) {
        if (seen.has(r.rowId)) continue;
        seen.add(r.rowId);
        out.push(strip(r));
      }
    }
    return out;
  }

  override async relationsTouching(guildId: string, nodes: readonly NodeRef[]): Promise<Relation[]> {
    await enter(this.#state);
    return this.#relations(guildId, (r) =>
      nodes.some((n) => sameNode(r.srcType, r.srcId, n) || sameNode(r.dstType, r.dstId, n)),
    );
  }

  override async relationsCiting(guildId: string, factIds: readonly string[]): Promise<Relation[]> {
    await enter(this.#state);
    const wanted = new Set(factIds);
    return this.#relations(guildId, (r) => r.evidenceFactIds.some((id) => wanted.has(id)));
  }

  override async dropEvidence(guildId: string, factIds: readonly string[], at: Date): Promise<number> {
    await enter(this.#state);
    const drop = new Set(factIds);
    let changed = 0;
    for (const r of this.#active(guildId)) {
      if (!r.evidenceFactIds.some((id) => drop.has(id))) continue;
      const evidence = r.evidenceFactIds.filter((id) => !drop.has(id));
      const next: StoredRelation =
        evidence.length > 0
          ? { ...r, evidenceFactIds: evidence, weight: Math.round(r.weight * 0.8 * 1e6) / 1e6, updatedAt: at }
          : { ...r, evidenceFactIds: [], validUntil: at, updatedAt: at };
      this.#state.relations.set(r.rowId, next);
      changed++;
    }
    return changed;
  }

  override async upsertEntity(input: EntityUpsert): Promise<Entity> {
    await enter(this.#state);
    const k = key(input.guildId, input.slug);
    const current = this.#state.entities.get(k);
    const next = current ? mergeEntity(current, input) : newEntity(input);
    this.#state.entities.set(k, next);
    return next;
  }

  override async getEntities(guildId: string, slugs: readonly string[]): Promise<Entity[]> {
    await enter(this.#state);
    const out: Entity[] = [];
    for (const slug of slugs) {
      const e = this.#state.entities.get(key(guildId, slug));
      if (e) out.push(e);
    }
    return out;
  }

  override async findEntitiesByAlias(
    guildId: string,
    aliases: readonly string[],
  ): Promise<{ alias: string; slug: string }[]> {
    await enter(this.#state);
    const wanted = new Set(aliases);
    const out: { alias: string; slug: string }[] = [];
    for (const e of this.#state.entities.values()) {
      if (e.guildId !== guildId) continue;
      for (const a of e.aliases) if (wanted.has(a)) out.push({ alias: a, slug: e.slug });
    }
    return out;
  }

  override async bumpEntityFacts(guildId: string, slug: string, delta: number): Promise<void> {
    await enter(this.#state);
    const k = key(guildId, slug);
    const e = this.#state.entities.get(k);
    if (e) this.#state.entities.set(k, { ...e, factCount: Math.max(0, e.factCount + delta) });
  }

  override async linkEntityToUser(guildId: string, slug: string, userId: string | null): Promise<void> {
    await enter(this.#state);
    const k = key(guildId, slug);
    const e = this.#state.entities.get(k);
    if (e) this.#state.entities.set(k, { ...e, linkedUserId: userId });
  }

  override async entitiesLinkedTo(guildId: string, userIds: readonly string[]): Promise<Entity[]> {
    await enter(this.#state);
    const wanted = new Set(userIds);
    return [...this.#state.entities.values()].filter(
      (e) => e.guildId === guildId && e.linkedUserId !== null && wanted.has(e.linkedUserId),
    );
  }

  /** Relations of the guild (any validity) that pass `pred`, in row order. */
  #relations(guildId: string, pred: (r: StoredRelation) => boolean): Relation[] {
    const out: Relation[] = [];
    for (const r of this.#state.relations.values()) if (r.guildId === guildId && pred(r)) out.push(strip(r));
    return out;
  }

  #active(guildId: string): StoredRelation[] {
    const out: StoredRelation[] = [];
    for (const r of this.#state.relations.values())
      if (r.guildId === guildId && r.validUntil === null) out.push(r);
    return out;
  }

  #activeRelation(input: RelationUpsert): StoredRelation | undefined {
    for (const r of this.#state.relations.values()) {
      if (
        r.guildId === input.guildId &&
        r.validUntil === null &&
        r.verb === input.verb &&
        sameNode(r.srcType, r.srcId, input.src) &&
        sameNode(r.dstType, r.dstId, input.dst)
      ) {
        return r;
      }
    }
    return undefined;
  }
}
