import type { NodeRef } from '../model/graph.js';
import type { RelationEdge } from './graph-walk.js';

export type { RelationEdge } from './graph-walk.js';

/** Who stands how towards an entity ("who likes golf?"). */
export interface StanceSummary {
  /** The entity found (null when no entity matched the name). */
  readonly entitySlug: string | null;
  readonly entityName: string | null;
  readonly positive: readonly RelationEdge[];
  readonly negative: readonly RelationEdge[];
  readonly neutral: readonly RelationEdge[];
  /** Σ occurrences over the edges. */
  readonly totalEvidence: number;
}

/** Members by stance towards an entity, plus members whose facts mention it. */
export interface EntityUsers {
  readonly entitySlug: string | null;
  readonly entityName: string | null;
  readonly positive: readonly string[];
  readonly negative: readonly string[];
  readonly neutral: readonly string[];
  /** Subjects and speakers of active facts linked to the entity. */
  readonly mentioned: readonly string[];
  readonly totalEvidence: number;
}

/** An entity every given member has an edge to. */
export interface SharedEntity {
  readonly slug: string;
  readonly name: string;
  /** Σ over members of their heaviest effective weight to the entity. */
  readonly score: number;
  /** Per member (input order), that member's edges to the entity, heaviest first. */
  readonly edges: readonly (readonly RelationEdge[])[];
}

export interface SimilarUser {
  readonly userId: string;
  /** Polarity-aware weighted Jaccard over entity edges, in (0, 1]. */
  readonly score: number;
  /** Entities both relate to with the same polarity. */
  readonly sharedEntities: number;
  /** Entities they relate to with opposite polarity (these count against the score). */
  readonly conflictingEntities: number;
}

export interface NeighborInfo {
  readonly node: NodeRef;
  readonly depth: number;
  /** Product of the effective weights along the path. */
  readonly strength: number;
  /** Node keys (`type:id`) from the member to this node. */
  readonly path: readonly string[];
  readonly verbs: readonly string[];
  readonly evidenceFactIds: readonly string[];
}
