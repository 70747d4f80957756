import type { Visibility } from '../access/visibility.js';
import { visibleGraph } from '../access/visible-graph.js';
import { type RelationEdge, toEdge } from '../graph/graph-walk.js';
import { NodeType, Polarity } from '../model/enums.js';
import { type Fact, isActive } from '../model/fact.js';
import { nodeKey } from '../model/graph.js';
import type { MemoryStore } from '../ports/memory-store.js';
import type { RecallSession } from '../recall/recall-session.js';

/** Most groups (relations, disagreements, shared interests) in the section. */
export const MAX_GROUPS = 4;
/** Most lines in the section, and per group. */
export const MAX_LINES = 10;
const MAX_PER_GROUP = 4;

/** One line of the section: a stance or a relation, cited by the fact it rests on. */
export interface BetweenItem {
  readonly fact: Fact;
  /** Who, in order of appearance in `text`. */
  readonly text: readonly BetweenPart[];
}

/** A piece of a line: a member (printed by label), an entity name or library text. */
export type BetweenPart =
  | { readonly member: string }
  | { readonly entity: string }
  | { readonly words: string };

export interface BetweenGroup {
  readonly kind: 'relation' | 'opposite' | 'shared';
  /** The members the group is about, and for stances the entity. */
  readonly members: readonly string[];
  readonly entity: string | null;
  readonly items: readonly BetweenItem[];
}

const PHRASES: Readonly<Record<string, string>> = {
  fan_of: 'is a fan of',
  friends_with: 'is friends with',
  collaborates_with: 'collaborates with',
  teammate_of: 'is a teammate of',
  called_out: 'called out',
  argues_with: 'argues with',
  member_of: 'is a member of',
  lives_in: 'lives in',
  works_at: 'works at',
};

/** How a relation verb reads in a sentence ("friends_with" → "is friends with"). */
export function verbPhrase(verb: string): string {
  return PHRASES[verb] ?? verb.replace(/[_\s]+/g, ' ').trim();
}

const score = (edges: readonly RelationEdge[]) => edges.reduce((s, e) => s + e.weight, 0);
const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export interface BetweenInput {
  readonly store: MemoryStore;
  /** Reads shared with the recalls of the same prompt context (twins, facts). */
  readonly session: Pick<RecallSession, 'facts' | 'nodesOfUsers' | 'graphOf'>;
  /** Heaviest relations read per person (the recall's graph-hop fan-out, so the read is shared). */
  readonly edgesPerPerson: number;
  readonly guildId: string;
  /** The people in the conversation (asker first); members who opted out and bots are already gone. */
  readonly people: readonly string[];
  readonly visible: Visibility;
  readonly now: Date;
  /** Members whose statements are never shown (opted out, bots). */
  readonly excluded: (userId: string) => boolean;
}

/**
 * What the graph says about the people of a conversation together: relations stated between two
 * of them, entities they hold opposite stances on, and entities several of them like. Read from
 * the graph as the audience may see it (a relation counts only when a fact it rests on is
 * visible), each line cited by its newest active, visible evidence fact. Deterministic (weights,
 * then keys), bounded (MAX_GROUPS, MAX_LINES), zero model calls.
 */
export async function betweenPeople(input: BetweenInput): Promise<BetweenGroup[]> {
  const people = [...new Set(input.people)];
  if (people.length < 2) return [];
  const { store, guildId, visible, session } = input;
  const facts = { get: (g: string, ids: readonly string[]) => session.facts(g, ids) };
  const graph = visibleGraph(session.graphOf(store.graph), facts, guildId, visible);
  const { nodes, owners } = await session.nodesOfUsers(guildId, people);
  const relations = await graph.relationsOf(guildId, nodes, input.edgesPerPerson);
  if (relations.length === 0) return [];
  // The entities at the ends, in the order the graph walk reads them (the session shares the read).
  const ends = new Set<string>();
  for (const r of relations)
    for (const [type, id] of [
      [r.srcType, r.srcId],
      [r.dstType, r.dstId],
    ] as const)
      if (type === NodeType.ENTITY && !owners.has(id)) ends.add(id);
  const entities = new Map((await graph.getEntities(guildId, [...ends])).map((e) => [e.slug, e]));
  const present = new Set(people);
  const isPerson = (n: { type: string; id: string }) => n.type === NodeType.USER && present.has(n.id);
  // Heaviest edge per (src, dst, verb), as graph reads collapse them (twins of the people included).
  const best = new Map<string, RelationEdge>();
  for (const r of relations) {
    const e = toEdge(r, owners, input.now);
    const stance =
      e.dst.type === NodeType.ENTITY &&
      (e.polarity === Polarity.POSITIVE || e.polarity === Polarity.NEGATIVE);
    if (!isPerson(e.src) || nodeKey(e.src) === nodeKey(e.dst) || !(isPerson(e.dst) || stance)) continue;
    const k = `${nodeKey(e.src)}|${nodeKey(e.dst)}|${e.verb}`;
    if ((best.get(k)?.weight ?? -1) < e.weight) best.set(k, e);
  }
  // A stance can only form a group when at least two people hold one on the entity.
  const holders = new Map<string, Set<string>>();
  for (const e of best.values())
    if (e.dst.type === NodeType.ENTITY)
      holders.set(e.dst.id, (holders.get(e.dst.id) ?? new Set()).add(e.src.id));
  const shared = [...holders].filter(([, who]) => who.size >= 2).map(([slug]) => slug);
  // An entity standing for a member who is not here (their twin) is a person, not a topic.
  const topics = new Set(shared.filter((slug) => entities.get(slug)?.linkedUserId === null));
  const edges = [...best.values()]
    .filter((e) => e.dst.type === NodeType.USER || topics.has(e.dst.id))
    .sort((a, b) => b.weight - a.weight || (a.verb < b.verb ? -1 : a.verb > b.verb ? 1 : 0));
  if (edges.length === 0) return [];
  const evidence = await evidenceOf(input, edges);
  const cited = edges.filter((e) => evidence.has(e));
  const stances = stanceGroups(cited, evidence, (id) => people.indexOf(id));
  // Stated relations, then disagreements, then shared interests (conversation openers).
  const groups = [
    ...relationGroups(cited, evidence).slice(0, 2),
    ...stances.filter((g) => g.kind === 'opposite').slice(0, 3),
    ...stances.filter((g) => g.kind === 'shared').slice(0, 2),
  ];
  const names = new Map([...entities.values()].map((e) => [e.slug, e.name]));
  const out: BetweenGroup[] = [];
  let lines = 0;
  for (const g of groups) {
    if (out.length >= MAX_GROUPS || lines + g.items.length > MAX_LINES) continue;
    const entity = g.entity === null ? null : (names.get(g.entity) ?? g.entity);
    out.push({
      ...g,
      entity,
      items: g.items.map((i) => ({
        ...i,
        text: i.text.map((p) => ('entity' in p ? { entity: names.get(p.entity) ?? p.entity } : p)),
      })),
    });
    lines += g.items.length;
  }
  return out;
}

/** The newest evidence fact of each edge that is active, visible and stated by no excluded member. */
async function evidenceOf(
  input: BetweenInput,
  edges: readonly RelationEdge[],
): Promise<Map<RelationEdge, Fact>> {
  const facts = new Map<string, Fact>();
  const read = async (ids: readonly string[]) => {
    for (const f of await input.session.facts(input.guildId, ids)) facts.set(f.id, f);
  };
  const usable = (f: Fact | undefined): f is Fact =>
    f !== undefined &&
    isActive(f) &&
    input.visible.channels(f.channels) &&
    !(f.subjectId !== null && input.excluded(f.subjectId)) &&
    !(f.attribution.speakerId !== null && input.excluded(f.attribution.speakerId));
  // The newest evidence of each edge first (usually enough); older evidence only where it is not usable.
  await read(edges.flatMap((e) => e.evidenceFactIds.slice(-1)));
  const unsettled = edges.filter((e) => !usable(facts.get(e.evidenceFactIds.at(-1) ?? '')));
  if (unsettled.length > 0) await read(unsettled.flatMap((e) => e.evidenceFactIds.slice(0, -1)));
  const out = new Map<RelationEdge, Fact>();
  for (const e of edges) {
    const fact = [...e.evidenceFactIds]
      .reverse()
      .map((id) => facts.get(id))
      .find(usable);
    if (fact) out.set(e, fact);
  }
  return out;
}

/** Relations between two people of the conversation, one group per pair, heaviest pairs first. */
function relationGroups(
  edges: readonly RelationEdge[],
  evidence: ReadonlyMap<RelationEdge, Fact>,
): BetweenGroup[] {
  const pairs = new Map<string, RelationEdge[]>();
  for (const e of edges) {
    if (e.dst.type !== NodeType.USER) continue;
    const k = [e.src.id, e.dst.id].sort(byKey).join('\u0000');
    pairs.set(k, [...(pairs.get(k) ?? []), e]);
  }
  return [...pairs.entries()]
    .sort(([ka, a], [kb, b]) => score(b) - score(a) || byKey(ka, kb))
    .map(([k, list]) => ({
      kind: 'relation' as const,
      members: k.split('\u0000'),
      entity: null,
      items: list.slice(0, MAX_PER_GROUP).map((e) => ({
        fact: evidence.get(e) as Fact,
        text: [{ member: e.src.id }, { words: verbPhrase(e.verb) }, { member: e.dst.id }],
      })),
    }));
}

/** Entities people hold opposite stances on (first), then entities several of them like. */
function stanceGroups(
  edges: readonly RelationEdge[],
  evidence: ReadonlyMap<RelationEdge, Fact>,
  rank: (userId: string) => number,
): BetweenGroup[] {
  /** The people of a group in conversation order (the asker first). */
  const inOrder = (list: readonly RelationEdge[]) =>
    [...list].sort((a, b) => rank(a.src.id) - rank(b.src.id));
  // Per entity and person, the person's strongest positive and negative edge.
  const byEntity = new Map<string, Map<string, { pos?: RelationEdge; neg?: RelationEdge }>>();
  for (const e of edges) {
    if (e.dst.type !== NodeType.ENTITY) continue;
    const people = byEntity.get(e.dst.id) ?? new Map<string, { pos?: RelationEdge; neg?: RelationEdge }>();
    const mine = people.get(e.src.id) ?? {};
    const side = e.polarity === Polarity.POSITIVE ? 'pos' : 'neg';
    if (!mine[side] || (mine[side]?.weight ?? 0) < e.weight) mine[side] = e;
    people.set(e.src.id, mine);
    byEntity.set(e.dst.id, people);
  }
  const opposite: [number, BetweenGroup][] = [];
  const shared: [number, BetweenGroup][] = [];
  for (const [slug, people] of [...byEntity.entries()].sort(([a], [b]) => byKey(a, b))) {
    // A person with both stances on one entity is mixed: left out of this entity.
    const settled = [...people.entries()].filter(([, s]) => !(s.pos && s.neg));
    const pos = settled.flatMap(([, s]) => (s.pos ? [s.pos] : [])).sort((a, b) => b.weight - a.weight);
    const neg = settled.flatMap(([, s]) => (s.neg ? [s.neg] : [])).sort((a, b) => b.weight - a.weight);
    const line = (e: RelationEdge): BetweenItem => ({
      fact: evidence.get(e) as Fact,
      text: [{ member: e.src.id }, { words: verbPhrase(e.verb) }, { entity: slug }],
    });
    if (pos.length > 0 && neg.length > 0) {
      const shown = inOrder([...pos.slice(0, MAX_PER_GROUP / 2), ...neg.slice(0, MAX_PER_GROUP / 2)]);
      opposite.push([
        score(shown),
        { kind: 'opposite', members: shown.map((e) => e.src.id), entity: slug, items: shown.map(line) },
      ]);
    } else if (pos.length >= 2) {
      const shown = inOrder(pos.slice(0, MAX_PER_GROUP));
      shared.push([
        score(shown),
        { kind: 'shared', members: shown.map((e) => e.src.id), entity: slug, items: shown.map(line) },
      ]);
    }
  }
  // Stable sorts: equal scores keep slug order.
  const ranked = (list: [number, BetweenGroup][]) => list.sort((a, b) => b[0] - a[0]).map(([, g]) => g);
  return [...ranked(opposite), ...ranked(shared)];
}
