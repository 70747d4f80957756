import type { OptOut } from './admin.js';
import type { Fact, FactHistoryEntry, SourceRef } from './fact.js';
import type { Alias, Digest, Entity, Link, Relation, RelationRef } from './graph.js';
import type { ReactionRef } from './reaction.js';

/**
 * Everything a member's purge changes in one guild, decided by core (governance/purge-plan.ts)
 * and written by a store's `applyPurge` without further decisions. Every list names rows by id or
 * natural key; rows that no longer exist when the plan is applied are skipped.
 */
export interface PurgePlan {
  readonly guildId: string;
  readonly userId: string;
  /** Facts deleted with their history, keyword rows and vectors. */
  readonly factIds: readonly string[];
  /** Links deleted, by natural key (factId, nodeType, nodeId, kind). */
  readonly links: readonly Link[];
  /** Relations deleted. */
  readonly deleteRelations: readonly RelationRef[];
  /** Relations kept with this evidence (the purged facts taken out); nothing else of them changes. */
  readonly trimRelations: readonly {
    readonly relation: RelationRef;
    readonly evidenceFactIds: readonly string[];
  }[];
  /** Remaining facts whose sources become these (the member's refs taken out; version unchanged). */
  readonly stripSources: readonly { readonly factId: string; readonly sources: readonly SourceRef[] }[];
  /** Aliases deleted, by (alias, userId). */
  readonly aliases: readonly Pick<Alias, 'alias' | 'userId'>[];
  /** Profile digests deleted, by subject (null = the server digest). */
  readonly digestSubjects: readonly (string | null)[];
  /** Messages deleted (any status: pending rows leave the queue) with keyword rows and vectors. */
  readonly messageIds: readonly string[];
  /** Entities whose member link is cleared (`linkedUserId` null). */
  readonly unlinkEntities: readonly string[];
  /** Entities deleted with their alias index. */
  readonly deleteEntities: readonly string[];
  /** Reactions deleted: the member's own, and every reaction to the messages deleted. */
  readonly reactions: readonly ReactionRef[];
}

/**
 * What importing a guild export writes, decided by core (governance/import-plan.ts) and written
 * by a store's `applyImport`. Every row already carries the target guild.
 */
export interface ImportPlan {
  readonly guildId: string;
  /** Facts written as given, replacing a stored fact with the same id (keyword rows follow). */
  readonly facts: readonly Fact[];
  /** For every fact named here, the stored history is replaced by these entries (in order). */
  readonly history: readonly FactHistoryEntry[];
  /** Links written, replacing a stored link with the same natural key. */
  readonly links: readonly Link[];
  /** Stored relations deleted before `relations` are written. */
  readonly replaceRelations: readonly RelationRef[];
  /** Relations inserted (no stored relation shares an active edge or a natural key with them). */
  readonly relations: readonly Relation[];
  /** Entities written as given (with their alias index), replacing a stored one with the slug. */
  readonly entities: readonly Entity[];
  /** Aliases written as given, replacing a stored (alias, userId). */
  readonly aliases: readonly Alias[];
  /** Digests written, replacing the stored digest of the subject. */
  readonly digests: readonly Digest[];
  /** Opt-outs recorded with these dates (members already opted out are not listed). */
  readonly optOuts: readonly OptOut[];
}
