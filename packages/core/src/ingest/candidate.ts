import type { SourceChannel } from '../model/audience.js';
import type { EntityKind, FactCategory } from '../model/enums.js';
import type { SourceRef } from '../model/fact.js';

/** One end of a proposed relation: a member or a named entity. */
export type RelationEnd =
  | { readonly kind: 'user'; readonly userId: string }
  | { readonly kind: 'entity'; readonly name: string };

export interface CandidateRelation {
  readonly verb: string;
  readonly from: RelationEnd;
  readonly to: RelationEnd;
}

/** A vetted proposed fact, with people already resolved from tokens to user ids. */
export interface Candidate {
  readonly subjectId: string | null;
  readonly speakerId: string | null;
  readonly speakerName: string | null;
  readonly text: string;
  readonly normalizedText: string;
  readonly category: FactCategory;
  readonly confidence: number;
  readonly sources: readonly SourceRef[];
  /** Channels of the messages it was learned from ([] for a channel-free manual fact). */
  readonly channels: readonly SourceChannel[];
  readonly relatedUserIds: readonly string[];
  readonly entities: readonly { readonly name: string; readonly kind: EntityKind }[];
  readonly relations: readonly CandidateRelation[];
  /** How the candidate was produced (extraction, manual, import). */
  readonly origin: 'extraction' | 'manual';
  readonly actorId: string | null;
}
