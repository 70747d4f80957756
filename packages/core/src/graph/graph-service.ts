import { z } from 'zod';
import { type AccessDeps, resolveVisibility } from '../access/visibility.js';
import { visibleGraph } from '../access/visible-graph.js';
import { type Audience, audienceSchema } from '../model/audience.js';
import { NodeType, Polarity } from '../model/enums.js';
import type { NodeRef } from '../model/graph.js';
import type { Clock } from '../ports/clock.js';
import type { GraphStore } from '../ports/graph-store.js';
import type { MemoryStore } from '../ports/memory-store.js';
import { idField as id, parseInput, userIdField } from '../validation/index.js';
import { findEntity } from './entity-lookup.js';
import type { EntityUsers, NeighborInfo, SharedEntity, SimilarUser, StanceSummary } from './graph-types.js';
import { collapsedEdges, type RelationEdge, walkGraph } from './graph-walk.js';
import { entityNode, nodesOfUsers, userNode } from './identity-collapse.js';
import { similarUsers } from './similar-users.js';

export interface GraphDeps {
  readonly store: MemoryStore;
  readonly clock: Clock;
  readonly access: AccessDeps;
  /** Bots never appear in graph answers (default: none are bots). */
  isBot?(userId: string): boolean;
}

const limit = (def: number) => z.number().int().min(1).max(500).default(def);
/** Only relations and mentions resting on facts this audience may see (see `access.requireAudience`). */
const audience = audienceSchema.nullish();
const pairSchema = z.object({ guildId: id, audience, a: userIdField, b: userIdField }).strict();
const userSchema = z.object({ guildId: id, audience, userId: userIdField, limit: limit(50) }).strict();
const entitySchema = z
  .object({ guildId: id, audience, entity: z.string().min(1).max(200), limit: limit(100) })
  .strict();
const sharedSchema = z
  .object({ guildId: id, audience, a: userIdField, b: userIdField, limit: limit(10) })
  .strict();
const sharedNSchema = z
  .object({ guildId: id, audience, userIds: z.array(userIdField).max(25), limit: limit(10) })
  .strict();
const similarSchema = z.object({ guildId: id, audience, userId: userIdField, limit: limit(10) }).strict();
const neighborsSchema = z
  .object({
    guildId: id,
    audience,
    userId: userIdField,
    depth: z.number().int().min(1).max(3).default(2),
    limitPerHop: z.number().int().min(1).max(200).default(24),
  })
  .strict();

type In<T extends z.ZodType> = z.input<T>;

export interface GraphService {
  /** Active member↔member edges between a and b, both directions, heaviest first. */
  between(input: In<typeof pairSchema>): Promise<RelationEdge[]>;
  /** Every edge touching the member (twins included), heaviest first. */
  relationsOf(input: In<typeof userSchema>): Promise<RelationEdge[]>;
  /** Edges towards an entity (by name or slug), bucketed by polarity. */
  entityStances(input: In<typeof entitySchema>): Promise<StanceSummary>;
  /** Members by stance towards an entity, plus members whose facts mention it. */
  usersForEntity(input: In<typeof entitySchema>): Promise<EntityUsers>;
  /** Entities both members have edges to. */
  shared(input: In<typeof sharedSchema>): Promise<SharedEntity[]>;
  /** Entities every listed member has edges to (true N-way intersection); fewer than 2 members → []. */
  sharedN(input: In<typeof sharedNSchema>): Promise<SharedEntity[]>;
  /** Members with the most similar entity profile (polarity-aware weighted Jaccard). */
  similarUsers(input: In<typeof similarSchema>): Promise<SimilarUser[]>;
  /** Nodes within `depth` hops (both directions) with path, strength and evidence. */
  neighbors(input: In<typeof neighborsSchema>): Promise<NeighborInfo[]>;
}

const isUser = (n: NodeRef, userId: string) => n.type === NodeType.USER && n.id === userId;

/**
 * Graph queries (graph.* of the facade). Reads are identity-collapsed: a person entity linked to a
 * member reads as that member. Weights are effective (decayed since the last evidence). Bots and
 * members who opted out never appear.
 */
export function createGraphService(deps: GraphDeps): GraphService {
  const { store, clock } = deps;
  /** The graph as the audience of this call may see it (one policy answer per call). */
  const graphFor = async (guildId: string, who: Audience | null | undefined): Promise<GraphStore> =>
    visibleGraph(store.graph, store.facts, guildId, await resolveVisibility(deps.access, guildId, who));

  const excludedFor = async (guildId: string) => {
    const optedOut = new Set(await store.consent.optedOutUsers(guildId));
    return (userId: string) => optedOut.has(userId) || deps.isBot?.(userId) === true;
  };
  const visible = (excluded: (u: string) => boolean) => (e: RelationEdge) =>
    !(e.src.type === NodeType.USER && excluded(e.src.id)) &&
    !(e.dst.type === NodeType.USER && excluded(e.dst.id));

  const userEdges = async (graph: GraphStore, guildId: string, userId: string, perNode: number) => {
    const { nodes, owners } = await nodesOfUsers(graph, guildId, [userId]);
    const edges = await collapsedEdges(graph, guildId, nodes, owners, perNode, clock.now());
    return edges.filter((e) => isUser(e.src, userId) || isUser(e.dst, userId));
  };

  const stances = async (graph: GraphStore, guildId: string, name: string, max: number) => {
    const entity = await findEntity(graph, guildId, name);
    if (!entity) return { entity: null, edges: [] as RelationEdge[] };
    const targets: NodeRef[] = [entityNode(entity.slug)];
    if (entity.linkedUserId !== null) targets.push(userNode(entity.linkedUserId));
    const { owners } = await nodesOfUsers(graph, guildId, entity.linkedUserId ? [entity.linkedUserId] : []);
    const target = entity.linkedUserId !== null ? userNode(entity.linkedUserId) : entityNode(entity.slug);
    const edges = (await collapsedEdges(graph, guildId, targets, owners, max, clock.now()))
      .filter((e) => e.dst.type === target.type && e.dst.id === target.id)
      .filter(visible(await excludedFor(guildId)))
      .slice(0, max);
    return { entity, edges };
  };

  const sharedAmong = async (
    graph: GraphStore,
    guildId: string,
    userIds: readonly string[],
    max: number,
  ): Promise<SharedEntity[]> => {
    const unique = [...new Set(userIds)];
    if (unique.length < 2) return [];
    const excluded = await excludedFor(guildId);
    if (unique.some(excluded)) return [];
    const perUser = await Promise.all(
      unique.map(async (u) => {
        const byEntity = new Map<string, RelationEdge[]>();
        for (const e of await userEdges(graph, guildId, u, 200)) {
          const other = isUser(e.src, u) ? e.dst : e.src;
          if (other.type !== NodeType.ENTITY) continue;
          byEntity.set(other.id, [...(byEntity.get(other.id) ?? []), e]);
        }
        return byEntity;
      }),
    );
    const [first, ...rest] = perUser;
    if (!first) return [];
    const common = [...first.keys()].filter((slug) => rest.every((m) => m.has(slug)));
    const names = new Map((await graph.getEntities(guildId, common)).map((e) => [e.slug, e.name]));
    return common
      .map((slug) => {
        const edges = perUser.map((m) => m.get(slug) ?? []);
        const score = edges.reduce((s, list) => s + Math.max(0, ...list.map((e) => e.weight)), 0);
        return { slug, name: names.get(slug) ?? slug, score: Math.round(score * 1e6) / 1e6, edges };
      })
      .sort((a, b) => b.score - a.score || (a.slug < b.slug ? -1 : 1))
      .slice(0, max);
  };

  return {
    async between(input) {
      const q = parseInput(pairSchema, input, 'graph.between');
      if (q.a === q.b) return [];
      const excluded = await excludedFor(q.guildId);
      if (excluded(q.a) || excluded(q.b)) return [];
      const graph = await graphFor(q.guildId, q.audience);
      const { nodes, owners } = await nodesOfUsers(graph, q.guildId, [q.a, q.b]);
      const edges = await collapsedEdges(graph, q.guildId, nodes, owners, 200, clock.now());
      return edges.filter(
        (e) => (isUser(e.src, q.a) && isUser(e.dst, q.b)) || (isUser(e.src, q.b) && isUser(e.dst, q.a)),
      );
    },
    async relationsOf(input) {
      const q = parseInput(userSchema, input, 'graph.relationsOf');
      const excluded = await excludedFor(q.guildId);
      if (excluded(q.userId)) return [];
      const graph = await graphFor(q.guildId, q.audience);
      return (await userEdges(graph, q.guildId, q.userId, q.limit))
        .filter(visible(excluded))
        .slice(0, q.limit);
    },
    async entityStances(input) {
      const q = parseInput(entitySchema, input, 'graph.entityStances');
      const { entity, edges } = await stances(
        await graphFor(q.guildId, q.audience),
        q.guildId,
        q.entity,
        q.limit,
      );
      return {
        entitySlug: entity?.slug ?? null,
        entityName: entity?.name ?? null,
        positive: edges.filter((e) => e.polarity === Polarity.POSITIVE),
        negative: edges.filter((e) => e.polarity === Polarity.NEGATIVE),
        neutral: edges.filter((e) => e.polarity !== Polarity.POSITIVE && e.polarity !== Polarity.NEGATIVE),
        totalEvidence: edges.reduce((s, e) => s + e.occurrences, 0),
      };
    },
    async usersForEntity(input) {
      const q = parseInput(entitySchema, input, 'graph.usersForEntity');
      const graph = await graphFor(q.guildId, q.audience);
      const { entity, edges } = await stances(graph, q.guildId, q.entity, q.limit);
      const usersOf = (p: (e: RelationEdge) => boolean) => [
        ...new Set(edges.filter((e) => p(e) && e.src.type === NodeType.USER).map((e) => e.src.id)),
      ];
      const mentioned = new Set<string>();
      if (entity) {
        const excluded = await excludedFor(q.guildId);
        const links = await graph.linksForNodes(q.guildId, [entityNode(entity.slug)], {
          limitPerNode: q.limit,
        });
        const facts = await store.facts.get(q.guildId, [...new Set(links.map((l) => l.factId))]);
        for (const f of facts)
          for (const u of [f.subjectId, f.attribution.speakerId])
            if (u !== null && !excluded(u) && u !== entity.linkedUserId) mentioned.add(u);
      }
      return {
        entitySlug: entity?.slug ?? null,
        entityName: entity?.name ?? null,
        positive: usersOf((e) => e.polarity === Polarity.POSITIVE),
        negative: usersOf((e) => e.polarity === Polarity.NEGATIVE),
        neutral: usersOf((e) => e.polarity !== Polarity.POSITIVE && e.polarity !== Polarity.NEGATIVE),
        mentioned: [...mentioned].sort(),
        totalEvidence: edges.reduce((s, e) => s + e.occurrences, 0),
      };
    },
    async shared(input) {
      const q = parseInput(sharedSchema, input, 'graph.shared');
      return sharedAmong(await graphFor(q.guildId, q.audience), q.guildId, [q.a, q.b], q.limit);
    },
    async sharedN(input) {
      const q = parseInput(sharedNSchema, input, 'graph.sharedN');
      return sharedAmong(await graphFor(q.guildId, q.audience), q.guildId, q.userIds, q.limit);
    },
    async similarUsers(input) {
      const q = parseInput(similarSchema, input, 'graph.similarUsers');
      const excluded = await excludedFor(q.guildId);
      if (excluded(q.userId)) return [];
      const graph = await graphFor(q.guildId, q.audience);
      return similarUsers(graph, q.guildId, q.userId, { limit: q.limit, now: clock.now(), excluded });
    },
    async neighbors(input) {
      const q = parseInput(neighborsSchema, input, 'graph.neighbors');
      const excluded = await excludedFor(q.guildId);
      if (excluded(q.userId)) return [];
      const graph = await graphFor(q.guildId, q.audience);
      const { nodes } = await nodesOfUsers(graph, q.guildId, [q.userId]);
      const { reached } = await walkGraph(graph, q.guildId, nodes, {
        depth: q.depth,
        fanOut: q.limitPerHop,
        now: clock.now(),
        blocked: (n) => n.type === NodeType.USER && excluded(n.id),
      });
      return reached
        .map((r) => ({
          node: r.node,
          depth: r.depth,
          strength: Math.round(r.strength * 1e6) / 1e6,
          path: r.path,
          verbs: r.verbs,
          evidenceFactIds: r.evidenceFactIds,
        }))
        .sort((a, b) => a.depth - b.depth || b.strength - a.strength);
    },
  };
}
