import { normalizeAlias } from '../identity/aliases.js';
import { EdgeKind, EntityKind, NodeType } from '../model/enums.js';
import type { Fact } from '../model/fact.js';
import type { EntityUpsert, GraphWrites, Link, NodeRef, RelationUpsert } from '../model/graph.js';
import { normalizeVerb, polarityOf } from '../model/relation-rules.js';
import type { MemoryStore } from '../ports/memory-store.js';
import type { Candidate, RelationEnd } from './candidate.js';
import type { IngestDeps } from './deps.js';
import { entitySlug } from './entity-slug.js';
import { type MemberNames, resolveMemberNames } from './member-names.js';

/** An entity a new fact names, to upsert once the fact is stored. */
interface EntityWrite {
  readonly slug: string;
  readonly name: string;
  readonly kind: EntityKind;
}

/**
 * The graph of a new fact, resolved by reads only (which names are members): its entity slugs
 * (stored on the fact itself), incidence links, and the entity and relation writes, in order.
 */
export interface FactGraphPlan {
  readonly slugs: readonly string[];
  readonly links: readonly Link[];
  readonly steps: readonly GraphStep[];
}

type GraphStep =
  | { readonly kind: 'entity'; readonly entity: EntityWrite; readonly bump: boolean }
  | {
      readonly kind: 'relation';
      /** Its ends that are entities (upserted even when the relation itself is dropped). */
      readonly ends: readonly (EntityWrite | null)[];
      /** null: dropped (an end did not resolve, or both ends are the same node). */
      readonly relation: { readonly src: NodeRef; readonly dst: NodeRef; readonly verb: string } | null;
    };

/**
 * Plans the graph of a new fact: incidence links (subject, speaker, mentioned members, entities),
 * entities (with identity collapse: a name that is a member becomes that member) and typed
 * relations. Only reads (each distinct name is looked up once, all at once); `applyFactGraphs`
 * writes it.
 */
export async function planFactGraph(
  store: MemoryStore,
  fact: Fact,
  candidate: Candidate,
  at: Date,
  known?: MemberNames,
): Promise<FactGraphPlan> {
  const guildId = fact.guildId;
  const links: Link[] = [];
  const link = (nodeType: NodeType, nodeId: string, kind: EdgeKind) =>
    links.push({ guildId, factId: fact.id, nodeType, nodeId, kind, createdAt: at });
  if (fact.subjectId) link(NodeType.USER, fact.subjectId, EdgeKind.SUBJECT_OF);
  if (candidate.speakerId && candidate.speakerId !== fact.subjectId)
    link(NodeType.USER, candidate.speakerId, EdgeKind.SPEAKER_OF);
  for (const userId of candidate.relatedUserIds) {
    if (userId !== fact.subjectId && userId !== candidate.speakerId)
      link(NodeType.USER, userId, EdgeKind.MENTIONED_WITH);
  }
  // Every name the fact gives that is not resolved yet is looked up, all at once.
  const members = await resolveMemberNames(store, guildId, [candidate], known);
  const verbs = candidate.relations.map((r) => normalizeVerb(r.verb));
  const node = (name: string, kind: EntityKind): { ref: NodeRef; write: EntityWrite | null } | null => {
    const slug = entitySlug(name);
    if (slug.length === 0) return null;
    const userId = members.get(normalizeAlias(name)) ?? null;
    if (userId) return { ref: { type: NodeType.USER, id: userId }, write: null };
    return { ref: { type: NodeType.ENTITY, id: slug }, write: { slug, name: name.slice(0, 64), kind } };
  };
  const kinds = new Map(candidate.entities.map((e) => [normalizeAlias(e.name), e.kind]));
  const slugs: string[] = [];
  const steps: GraphStep[] = [];
  for (const entity of candidate.entities) {
    const n = node(entity.name, entity.kind);
    if (!n) continue;
    if (!n.write) {
      if (n.ref.id !== fact.subjectId) link(NodeType.USER, n.ref.id, EdgeKind.ABOUT_USER);
      continue;
    }
    const fresh = !slugs.includes(n.ref.id);
    steps.push({ kind: 'entity', entity: n.write, bump: fresh });
    if (fresh) {
      slugs.push(n.ref.id);
      link(NodeType.ENTITY, n.ref.id, EdgeKind.ABOUT_ENTITY);
    }
  }
  const endOf = (end: RelationEnd) =>
    end.kind === 'user'
      ? { ref: { type: NodeType.USER, id: end.userId } as NodeRef, write: null }
      : node(end.name, kinds.get(normalizeAlias(end.name)) ?? EntityKind.CONCEPT);
  for (const [i, relation] of candidate.relations.entries()) {
    const verb = verbs[i];
    if (!verb) continue;
    const src = endOf(relation.from);
    const dst = endOf(relation.to);
    const ends = [src?.write ?? null, dst?.write ?? null];
    if (!src || !dst || (src.ref.type === dst.ref.type && src.ref.id === dst.ref.id)) {
      steps.push({ kind: 'relation', ends, relation: null });
      continue;
    }
    steps.push({ kind: 'relation', ends, relation: { src: src.ref, dst: dst.ref, verb } });
    for (const n of [src.ref, dst.ref]) {
      if (n.type === NodeType.ENTITY && !slugs.includes(n.id)) {
        slugs.push(n.id);
        link(NodeType.ENTITY, n.id, EdgeKind.ABOUT_ENTITY);
      } else if (n.type === NodeType.USER && n.id !== fact.subjectId && n.id !== candidate.speakerId) {
        link(NodeType.USER, n.id, EdgeKind.ABOUT_USER);
      }
    }
  }
  return { slugs, links, steps };
}

/**
 * The planned graphs of facts as one set of writes: every entity they name (in plan order, fact
 * after fact; an entity's fact count raised once per fact that names it), then their relations
 * and incidence links.
 */
export function factGraphWrites(
  items: readonly { readonly fact: Fact; readonly plan: FactGraphPlan }[],
  at: Date,
): GraphWrites {
  const entities: EntityUpsert[] = [];
  const relations: RelationUpsert[] = [];
  for (const { fact, plan } of items) {
    const guildId = fact.guildId;
    const upsert = (e: EntityWrite, factDelta: number) =>
      entities.push({
        guildId,
        slug: e.slug,
        name: e.name,
        kind: e.kind,
        aliases: [normalizeAlias(e.name)],
        at,
        ...(factDelta === 0 ? {} : { factDelta }),
      });
    for (const step of plan.steps) {
      if (step.kind === 'entity') {
        upsert(step.entity, step.bump ? 1 : 0);
        continue;
      }
      for (const e of step.ends) if (e) upsert(e, 0);
      const r = step.relation;
      if (!r) continue;
      relations.push({
        guildId,
        src: r.src,
        dst: r.dst,
        verb: r.verb,
        polarity: polarityOf(r.verb),
        confidence: fact.confidence,
        evidenceFactId: fact.id,
        at,
      });
    }
  }
  return { entities, relations, links: items.flatMap((it) => it.plan.links) };
}

const emptyWrites = (w: GraphWrites) => w.entities.length + w.relations.length + w.links.length === 0;

/** Writes the planned graphs of stored facts (`factGraphWrites`) in one call whatever their number. */
export async function applyFactGraphs(
  store: MemoryStore,
  items: readonly { readonly fact: Fact; readonly plan: FactGraphPlan }[],
  at: Date,
): Promise<void> {
  const writes = factGraphWrites(items, at);
  if (!emptyWrites(writes)) await store.graph.applyGraphWrites(writes);
}

/**
 * Where transactions are `ordered`: lets the store prepare the graphs of facts whose insert is
 * still being decided (`GraphStore.prepareGraphWrites`), beside that insert. A failure only costs
 * the round trips it would have saved (`applyGraphWrites` does the work again), so it is logged,
 * not thrown. Nothing is sent elsewhere.
 */
export async function prepareFactGraphs(
  deps: Pick<IngestDeps, 'store' | 'logger'>,
  items: readonly { readonly fact: Fact; readonly plan: FactGraphPlan }[],
  at: Date,
): Promise<void> {
  const { store } = deps;
  const guildId = items[0]?.fact.guildId;
  if (store.capabilities.transactions === 'atomic' || guildId === undefined) return;
  const writes = factGraphWrites(items, at);
  if (emptyWrites(writes)) return;
  try {
    await store.graph.prepareGraphWrites(writes);
  } catch (error) {
    deps.logger?.({ level: 'warn', event: 'ingest.graph_prepare_failed', data: { guildId }, error });
  }
}
