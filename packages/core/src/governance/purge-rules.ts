import type { PurgeReport } from '../model/admin.js';
import type { Fact, SourceRef } from '../model/fact.js';
import type { PurgePlan } from '../model/governance-plans.js';
import type { Link, NodeRef, Relation, RelationRef } from '../model/graph.js';
import { relationRefKey, relationRefOf } from '../model/graph.js';
import { type ReactionRef, reactionRefKey } from '../model/reaction.js';

/** Pure decisions of a member's purge; purge-plan.ts reads the data and assembles the plan. */

/** A fact is the member's when it is about them or they stated it. */
export function isMemberFact(f: Pick<Fact, 'subjectId' | 'attribution'>, userId: string): boolean {
  return f.subjectId === userId || f.attribution.speakerId === userId;
}

const touches = (r: Relation, userId: string) =>
  (r.srcType === 'user' && r.srcId === userId) || (r.dstType === 'user' && r.dstId === userId);

/**
 * What becomes of the relations the purge reaches: one touching the member goes, as does one
 * whose every piece of evidence is a purged fact; one keeping other evidence only loses the purged
 * facts from it. Relations without evidence that do not touch the member are left alone.
 */
export function decideRelations(
  relations: readonly Relation[],
  userId: string,
  purgedFactIds: ReadonlySet<string>,
): { readonly deleted: Relation[]; readonly trimmed: PurgePlan['trimRelations'] } {
  const deleted: Relation[] = [];
  const trimmed: { relation: RelationRef; evidenceFactIds: string[] }[] = [];
  const seen = new Set<string>();
  for (const r of relations) {
    const k = relationRefKey(r);
    if (seen.has(k)) continue;
    seen.add(k);
    const remaining = r.evidenceFactIds.filter((id) => !purgedFactIds.has(id));
    if (touches(r, userId) || (r.evidenceFactIds.length > 0 && remaining.length === 0)) deleted.push(r);
    else if (remaining.length !== r.evidenceFactIds.length)
      trimmed.push({ relation: relationRefOf(r), evidenceFactIds: remaining });
  }
  return { deleted, trimmed };
}

/**
 * Digests that go: the member's own, and those of every subject (the server included) the member
 * stated facts about, since a digest summarises those statements and may quote them.
 */
export function quotedDigestSubjects(userId: string, memberFacts: readonly Fact[]): (string | null)[] {
  const subjects = new Set<string | null>([userId]);
  for (const f of memberFacts) if (f.attribution.speakerId === userId) subjects.add(f.subjectId);
  return [...subjects];
}

/** The member's source refs taken out of the remaining facts that quote them. */
export function stripMemberSources(
  quoting: readonly Fact[],
  userId: string,
  purgedFactIds: ReadonlySet<string>,
): { readonly strip: PurgePlan['stripSources']; readonly removed: number } {
  const strip: { factId: string; sources: SourceRef[] }[] = [];
  let removed = 0;
  for (const f of quoting) {
    if (purgedFactIds.has(f.id)) continue;
    const sources = f.sources.filter((s) => s.authorId !== userId);
    if (sources.length === f.sources.length) continue;
    removed += f.sources.length - sources.length;
    strip.push({ factId: f.id, sources });
  }
  return { strip, removed };
}

/** Links that go: every link of a purged fact and every link to the member's node (each once). */
export function purgedLinks(factLinks: readonly Link[], memberLinks: readonly Link[]): Link[] {
  const byKey = new Map<string, Link>();
  for (const l of [...factLinks, ...memberLinks])
    byKey.set(`${l.factId}\u0000${l.nodeType}\u0000${l.nodeId}\u0000${l.kind}`, l);
  return [...byKey.values()];
}

/** Entities the purge may leave unreferenced: those the purged facts link to or the deleted relations join. */
export function entityCandidates(factLinks: readonly Link[], deleted: readonly Relation[]): string[] {
  const slugs = new Set<string>();
  for (const l of factLinks) if (l.nodeType === 'entity') slugs.add(l.nodeId);
  for (const r of deleted) {
    if (r.srcType === 'entity') slugs.add(r.srcId);
    if (r.dstType === 'entity') slugs.add(r.dstId);
  }
  return [...slugs];
}

/**
 * Candidates nothing refers to once the purge is done: no link from a fact that stays and no
 * relation (active or ended) that stays. They would keep the member's words (names of things
 * they talked about), so they go too; an entity something else still refers to is kept.
 */
export function orphanedEntities(input: {
  readonly candidates: readonly string[];
  readonly existing: ReadonlySet<string>;
  readonly links: readonly Link[];
  readonly relations: readonly Relation[];
  readonly purgedFactIds: ReadonlySet<string>;
  readonly deletedRelations: ReadonlySet<string>;
}): string[] {
  const referenced = new Set<string>();
  for (const l of input.links)
    if (l.nodeType === 'entity' && !input.purgedFactIds.has(l.factId)) referenced.add(l.nodeId);
  for (const r of input.relations) {
    if (input.deletedRelations.has(relationRefKey(r))) continue;
    if (r.srcType === 'entity') referenced.add(r.srcId);
    if (r.dstType === 'entity') referenced.add(r.dstId);
  }
  return input.candidates.filter((slug) => input.existing.has(slug) && !referenced.has(slug));
}

/**
 * Reactions that go, each once by natural key: the member's own (who reacted is their data) and
 * every reaction to their messages (the messages go, so their counts go with them).
 */
export function purgedReactions(reactions: readonly ReactionRef[]): ReactionRef[] {
  const byKey = new Map<string, ReactionRef>();
  for (const r of reactions)
    byKey.set(reactionRefKey(r), { messageId: r.messageId, userId: r.userId, emoji: r.emoji });
  return [...byKey.values()];
}

export const entityNodes = (slugs: readonly string[]): NodeRef[] =>
  slugs.map((id) => ({ type: 'entity' as const, id }));

/** Counts the plan does not carry itself (read while planning). */
export interface PurgeTallies {
  readonly vectors: number;
  readonly history: number;
  readonly sourcesStripped: number;
  readonly optOutKept: boolean;
}

/** The report of a plan: the same numbers whether it is only counted (dry run) or applied. */
export function purgeReport(plan: PurgePlan, tallies: PurgeTallies, dryRun: boolean): PurgeReport {
  return {
    guildId: plan.guildId,
    userId: plan.userId,
    dryRun,
    facts: plan.factIds.length,
    vectors: tallies.vectors,
    history: tallies.history,
    links: plan.links.length,
    relations: plan.deleteRelations.length,
    aliases: plan.aliases.length,
    digests: plan.digestSubjects.length,
    messages: plan.messageIds.length,
    sourcesStripped: tallies.sourcesStripped,
    entitiesUnlinked: plan.unlinkEntities.length,
    entities: plan.deleteEntities.length,
    reactions: plan.reactions.length,
    budgetRows: 0,
    optOutKept: tallies.optOutKept,
  };
}
