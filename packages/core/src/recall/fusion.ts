import { ChannelName } from '../model/enums.js';
import type { Fact } from '../model/fact.js';
import type { ChannelList, NamedTargets } from './channel-types.js';
import { lexicalDivisor } from './lexical-scale.js';
import type { ScoreComponents } from './recall-types.js';
import { clamp01, semanticScaler } from './semantic-scale.js';

export interface FusionWeights {
  readonly semantic: number;
  readonly lexical: number;
  readonly entity: number;
  readonly strength: number;
  readonly rrf: number;
  readonly temporal: number;
}

/** Components that can be absent for a query: their weight then leaves the mean. */
export interface ActiveComponents {
  /** The query names members or entities (or has an entity hint). */
  readonly entity: boolean;
  /** The query names a date or period. */
  readonly temporal: boolean;
  /** Strength applies to facts, not to messages. */
  readonly strength: boolean;
}

export const ALL_ACTIVE: ActiveComponents = { entity: true, temporal: true, strength: true };

/** Everything the channels said about one fact, before it is read from the store. */
export interface Candidate {
  readonly factId: string;
  fact: Fact | undefined;
  semantic: number;
  lexical: number;
  /** Found by the entity or entity-hint channel. */
  entityListed: boolean;
  rrf: number;
  readonly channels: ChannelName[];
  hopPath: readonly string[];
}

/**
 * Merges channel lists. Each list contributes 1 / (k + rank + 1) per fact (reciprocal-rank fusion,
 * rank 0-based); the sum is then divided by the best sum of the query so it lies in (0, 1].
 * Semantic = cosine (clamped to [0, 1]), or min-max normalised over the query's vector hits when
 * `relativeSemantic` (see semantic-scale.ts); lexical = BM25 divided by the best BM25 of the query,
 * or by `lexicalFloor` × the full-match score when that is larger (see lexical-scale.ts).
 */
export function mergeChannels(
  lists: readonly ChannelList[],
  rrfK: number,
  relativeSemantic = false,
  lexicalFloor = 0,
): Map<string, Candidate> {
  const out = new Map<string, Candidate>();
  let bestBm25 = 0;
  for (const list of lists)
    if (list.channel === ChannelName.KEYWORD) {
      let best = 0;
      for (const h of list.hits) best = Math.max(best, h.score);
      bestBm25 = Math.max(bestBm25, lexicalDivisor(best, list.fullMatchScore, lexicalFloor));
    }
  for (const list of lists) {
    const semantic =
      list.channel === ChannelName.VECTOR
        ? semanticScaler(
            list.hits.map((h) => h.score),
            relativeSemantic,
          )
        : clamp01;
    list.hits.forEach((hit, rank) => {
      let c = out.get(hit.factId);
      if (!c) {
        c = {
          factId: hit.factId,
          fact: undefined,
          semantic: 0,
          lexical: 0,
          entityListed: false,
          rrf: 0,
          channels: [],
          hopPath: [],
        };
        out.set(hit.factId, c);
      }
      if (!c.channels.includes(list.channel)) {
        c.channels.push(list.channel);
        c.rrf += 1 / (rrfK + rank + 1);
      }
      if (hit.fact && !c.fact) c.fact = hit.fact;
      if (list.channel === ChannelName.VECTOR) c.semantic = Math.max(c.semantic, semantic(hit.score));
      if (list.channel === ChannelName.KEYWORD && bestBm25 > 0)
        c.lexical = Math.max(c.lexical, hit.score / bestBm25);
      if (list.channel === ChannelName.ENTITY || list.channel === ChannelName.ENTITY_HINT)
        c.entityListed = true;
      if (hit.hopPath && c.hopPath.length === 0) c.hopPath = hit.hopPath;
    });
  }
  let bestRrf = 0;
  for (const c of out.values()) bestRrf = Math.max(bestRrf, c.rrf);
  if (bestRrf > 0) for (const c of out.values()) c.rrf /= bestRrf;
  return out;
}

/**
 * Weighted mean of the components that apply to the query (weights need not sum to 1; a
 * component that does not apply, such as `temporal` for a query naming no date, leaves both the
 * sum and the divisor, so scores stay comparable across queries). All-zero weights fall back to rrf.
 */
export function fusedScore(
  c: Omit<ScoreComponents, 'context'>,
  w: FusionWeights,
  active: ActiveComponents = ALL_ACTIVE,
): number {
  return weightedMean(c.semantic, c.lexical, c.entity, c.strength, c.rrf, c.temporal, w, active);
}

/** `fusedScore` from the component values (no object per candidate on the pool's hot path). */
function weightedMean(
  semantic: number,
  lexical: number,
  entity: number,
  strength: number,
  rrf: number,
  temporal: number,
  w: FusionWeights,
  active: ActiveComponents,
): number {
  const we = active.entity ? w.entity : 0;
  const wt = active.temporal ? w.temporal : 0;
  const ws = active.strength ? w.strength : 0;
  const total = w.semantic + w.lexical + we + ws + w.rrf + wt;
  if (total <= 0) return rrf;
  const s =
    w.semantic * semantic + w.lexical * lexical + we * entity + ws * strength + w.rrf * rrf + wt * temporal;
  return Math.round((s / total) * 1e6) / 1e6;
}

/** Score before the fact is read (no strength or time, entity only from the entity lists): picks the pool. */
export function preliminaryScore(c: Candidate, w: FusionWeights, active: ActiveComponents): number {
  return weightedMean(c.semantic, c.lexical, c.entityListed ? 1 : 0, 0, c.rrf, 0, w, active);
}

/** 1 when the fact concerns a named member or entity (subject, related users, entity slugs). */
export function entityComponent(c: Candidate, fact: Fact, targets: NamedTargets): number {
  if (c.entityListed) return 1;
  if (targets.userIds.size === 0 && targets.entitySlugs.size === 0) return 0;
  if (fact.subjectId !== null && targets.userIds.has(fact.subjectId)) return 1;
  if (fact.relatedUserIds.some((u) => targets.userIds.has(u))) return 1;
  if (fact.entitySlugs.some((s) => targets.entitySlugs.has(s))) return 1;
  return 0;
}

/** Keeps the `size` best candidates by preliminary score (ties: more channels, then id). */
export function selectPool(
  candidates: Iterable<Candidate>,
  w: FusionWeights,
  active: ActiveComponents,
  size: number,
): Candidate[] {
  const list = [...candidates];
  const score = list.map((c) => preliminaryScore(c, w, active));
  const order = list.map((_, i) => i);
  order.sort((a, b) => {
    const x = list[a] as Candidate;
    const y = list[b] as Candidate;
    return (score[b] as number) - (score[a] as number) || y.rrf - x.rrf || (x.factId < y.factId ? -1 : 1);
  });
  return order.slice(0, size).map((i) => list[i] as Candidate);
}
