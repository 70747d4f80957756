import type { FactHistoryEntry } from '../../model/fact.js';
import type { ImportPlan, PurgePlan } from '../../model/governance-plans.js';
import { type Link, type RelationRef, relationRefKey } from '../../model/graph.js';
import { reactionRefKey } from '../../model/reaction.js';
import { key, type MemoryState } from './state.js';

const linkKey = (guildId: string, l: Pick<Link, 'factId' | 'nodeType' | 'nodeId' | 'kind'>) =>
  key(guildId, l.factId, l.nodeType, l.nodeId, l.kind);

/** Deletes the guild's relations with these natural keys (missing ones are skipped). */
function dropRelations(s: MemoryState, guildId: string, refs: readonly RelationRef[]): void {
  const doomed = new Set(refs.map(relationRefKey));
  if (doomed.size === 0) return;
  for (const [rowId, r] of [...s.relations.entries()])
    if (r.guildId === guildId && doomed.has(relationRefKey(r))) s.relations.delete(rowId);
}

/** Writes a purge plan: deletes and rewrites exactly the rows it names (call inside a transaction). */
export function writePurge(s: MemoryState, plan: PurgePlan): void {
  const g = plan.guildId;
  for (const id of plan.factIds) {
    s.facts.delete(key(g, id));
    s.history.delete(key(g, id));
    s.vectors.delete(key(g, 'fact', id));
  }
  for (const l of plan.links) s.links.delete(linkKey(g, l));
  dropRelations(s, g, plan.deleteRelations);
  const trims = new Map(plan.trimRelations.map((t) => [relationRefKey(t.relation), t.evidenceFactIds]));
  for (const [rowId, r] of [...s.relations.entries()]) {
    const evidence = r.guildId === g ? trims.get(relationRefKey(r)) : undefined;
    if (evidence) s.relations.set(rowId, { ...r, evidenceFactIds: [...evidence] });
  }
  for (const { factId, sources } of plan.stripSources) {
    const f = s.facts.get(key(g, factId));
    if (f) s.facts.set(key(g, factId), { ...f, sources: [...sources] });
  }
  for (const a of plan.aliases) s.aliases.delete(key(g, a.alias, a.userId));
  for (const subject of plan.digestSubjects) s.digests.delete(key(g, subject));
  for (const id of plan.messageIds) {
    s.messages.delete(key(g, id));
    s.vectors.delete(key(g, 'message', id));
  }
  for (const slug of plan.unlinkEntities) {
    const e = s.entities.get(key(g, slug));
    if (e) s.entities.set(key(g, slug), { ...e, linkedUserId: null });
  }
  for (const slug of plan.deleteEntities) s.entities.delete(key(g, slug));
  const reactions = new Set(plan.reactions.map(reactionRefKey));
  for (const messageId of new Set(plan.reactions.map((r) => r.messageId))) {
    const rows = s.reactions.get(key(g, messageId)) ?? [];
    const rest = rows.filter((r) => !reactions.has(reactionRefKey(r)));
    if (rest.length === 0) s.reactions.delete(key(g, messageId));
    else if (rest.length !== rows.length) s.reactions.set(key(g, messageId), rest);
  }
}

/** Writes an import plan: every row as given, replacing what it names (call inside a transaction). */
export function writeImport(s: MemoryState, plan: ImportPlan): void {
  const g = plan.guildId;
  for (const f of plan.facts) s.facts.set(key(g, f.id), f);
  const byFact = new Map<string, FactHistoryEntry[]>();
  for (const h of plan.history) byFact.set(h.factId, [...(byFact.get(h.factId) ?? []), h]);
  for (const [factId, entries] of byFact) s.history.set(key(g, factId), entries);
  for (const l of plan.links) s.links.set(linkKey(g, l), l);
  dropRelations(s, g, plan.replaceRelations);
  for (const r of plan.relations) {
    const rowId = s.nextRelationRow++;
    s.relations.set(rowId, { ...r, rowId });
  }
  for (const e of plan.entities) s.entities.set(key(g, e.slug), e);
  for (const a of plan.aliases) s.aliases.set(key(g, a.alias, a.userId), a);
  for (const d of plan.digests) s.digests.set(key(g, d.subjectId), d);
  for (const o of plan.optOuts) s.optOuts.set(key(g, o.userId), o.at);
}
