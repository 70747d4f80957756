import type { GuildSnapshot, GuildStats, PurgeReport } from '../../model/admin.js';
import type { FactScope, MemoryTier } from '../../model/enums.js';
import { type Fact, isActive } from '../../model/fact.js';
import type { Digest, Relation } from '../../model/graph.js';
import type { BudgetStore } from '../../ports/budget-store.js';
import type { ConsentStore } from '../../ports/consent-store.js';
import type { CursorStore } from '../../ports/cursor-store.js';
import type { DigestStore } from '../../ports/digest-store.js';
import type { ErasureInput, ErasureLog } from '../../ports/erasure-log.js';
import type { GuildAdminStore, ImportCounts } from '../../ports/guild-admin-store.js';
import type { MetaStore } from '../../ports/meta-store.js';
import { InMemoryErasureLog } from './in-memory-erasures.js';
import { enter, key, type MemoryState } from './state.js';

const digestKey = (guildId: string, subjectId: string | null) => key(guildId, subjectId);

export class InMemoryGovernanceStore
  implements ConsentStore, DigestStore, CursorStore, MetaStore, BudgetStore, ErasureLog, GuildAdminStore
{
  readonly #state: MemoryState;
  readonly #erasures: InMemoryErasureLog;

  constructor(state: MemoryState) {
    this.#state = state;
    this.#erasures = new InMemoryErasureLog(state);
  }

  // The erasure log (purge fencing) lives in its own module.
  readonly recordErasure = (input: ErasureInput): Promise<number> => this.#erasures.record(input);
  readonly erasuresSince = (guildId: string, after: number) => this.#erasures.since(guildId, after);
  readonly pruneErasures = (before: Date): Promise<number> => this.#erasures.prune(before);

  /** Deleted values are unreachable once their map entries go: nothing to rewrite. */
  async compactDeleted(): Promise<void> {
    await enter(this.#state);
  }

  async setOptOut(guildId: string, userId: string, optedOut: boolean, at: Date): Promise<void> {
    await enter(this.#state);
    if (optedOut) this.#state.optOuts.set(key(guildId, userId), at);
    else this.#state.optOuts.delete(key(guildId, userId));
  }

  async isOptedOut(guildId: string, userId: string): Promise<boolean> {
    await enter(this.#state);
    return this.#state.optOuts.has(key(guildId, userId));
  }

  async optedOutUsers(guildId: string): Promise<string[]> {
    await enter(this.#state);
    const prefix = key(guildId, '');
    return [...this.#state.optOuts.entries()]
      .filter(([k]) => k.startsWith(prefix))
      .map(([k]) => k.slice(prefix.length))
      .sort();
  }

  async getDigest(guildId: string, subjectId: string | null): Promise<Digest | null> {
    await enter(this.#state);
    return this.#state.digests.get(digestKey(guildId, subjectId)) ?? null;
  }

  async putDigest(digest: Digest): Promise<void> {
    await enter(this.#state);
    this.#state.digests.set(digestKey(digest.guildId, digest.subjectId), digest);
  }

  async getCursor(guildId: string, k: string): Promise<string | null> {
    await enter(this.#state);
    return this.#state.cursors.get(key(guildId, k)) ?? null;
  }

  async setCursor(guildId: string, k: string, value: string): Promise<void> {
    await enter(this.#state);
    this.#state.cursors.set(key(guildId, k), value);
  }

  async chargeTokens(guildId: string, periods: readonly string[], tokens: number): Promise<void> {
    await enter(this.#state);
    for (const p of periods)
      this.#state.budgets.set(key(guildId, p), (this.#state.budgets.get(key(guildId, p)) ?? 0) + tokens);
  }

  async tokenUsage(guildId: string, periods: readonly string[]): Promise<Record<string, number>> {
    await enter(this.#state);
    const out: Record<string, number> = {};
    for (const p of periods) out[p] = this.#state.budgets.get(key(guildId, p)) ?? 0;
    return out;
  }

  async getMeta(k: string): Promise<string | null> {
    await enter(this.#state);
    return this.#state.meta.get(k) ?? null;
  }

  async setMeta(k: string, value: string): Promise<void> {
    await enter(this.#state);
    this.#state.meta.set(k, value);
  }

  async purgeUser(input: {
    readonly guildId: string;
    readonly userId: string;
    readonly dryRun: boolean;
  }): Promise<PurgeReport> {
    await enter(this.#state);
    return input.dryRun
      ? this.#purge(input.guildId, input.userId, true)
      : this.#state.transaction(async () => this.#purge(input.guildId, input.userId, false));
  }

  #purge(guildId: string, userId: string, dryRun: boolean): PurgeReport {
    const s = this.#state;
    const owned = new Set<string>();
    for (const f of s.facts.values()) {
      if (f.guildId === guildId && (f.subjectId === userId || f.attribution.speakerId === userId))
        owned.add(f.id);
    }
    const touchesUser = (r: Relation) =>
      (r.srcType === 'user' && r.srcId === userId) || (r.dstType === 'user' && r.dstId === userId);
    const report = {
      facts: owned.size,
      vectors: 0,
      history: 0,
      links: 0,
      relations: 0,
      aliases: 0,
      digests: 0,
      messages: 0,
      sourcesStripped: 0,
      entitiesUnlinked: 0,
      entities: 0,
    };
    const ops: (() => void)[] = [];
    const doomedLinks = new Set<string>();
    const doomedRelations = new Set<number>();
    for (const id of owned) {
      ops.push(() => s.facts.delete(key(guildId, id)));
      const h = s.history.get(key(guildId, id));
      if (h) {
        report.history += h.length;
        ops.push(() => s.history.delete(key(guildId, id)));
      }
      if (s.vectors.has(key(guildId, 'fact', id))) {
        report.vectors++;
        ops.push(() => s.vectors.delete(key(guildId, 'fact', id)));
      }
    }
    for (const [k, l] of s.links.entries()) {
      if (l.guildId === guildId && (owned.has(l.factId) || (l.nodeType === 'user' && l.nodeId === userId))) {
        report.links++;
        doomedLinks.add(k);
        ops.push(() => s.links.delete(k));
      }
    }
    for (const [rowId, r] of s.relations.entries()) {
      if (r.guildId !== guildId) continue;
      const remaining = r.evidenceFactIds.filter((id) => !owned.has(id));
      if (touchesUser(r) || (r.evidenceFactIds.length > 0 && remaining.length === 0)) {
        report.relations++;
        doomedRelations.add(rowId);
        ops.push(() => s.relations.delete(rowId));
      } else if (remaining.length !== r.evidenceFactIds.length) {
        ops.push(() => s.relations.set(rowId, { ...r, evidenceFactIds: remaining }));
      }
    }
    for (const [k, a] of s.aliases.entries()) {
      if (a.guildId === guildId && a.userId === userId) {
        report.aliases++;
        ops.push(() => s.aliases.delete(k));
      }
    }
    // Digests of subjects the user stated facts about may quote the user: dropped too.
    const digestSubjects = new Set<string | null>([userId]);
    for (const id of owned) {
      const f = s.facts.get(key(guildId, id));
      if (f && f.attribution.speakerId === userId) digestSubjects.add(f.subjectId);
    }
    for (const subject of digestSubjects)
      if (s.digests.has(digestKey(guildId, subject))) {
        report.digests++;
        ops.push(() => s.digests.delete(digestKey(guildId, subject)));
      }
    for (const [k, m] of s.messages.entries()) {
      if (m.guildId === guildId && m.authorId === userId) {
        report.messages++;
        ops.push(() => s.messages.delete(k));
        if (s.vectors.has(key(guildId, 'message', m.messageId))) {
          report.vectors++;
          ops.push(() => s.vectors.delete(key(guildId, 'message', m.messageId)));
        }
      }
    }
    for (const [k, f] of s.facts.entries()) {
      if (f.guildId !== guildId || owned.has(f.id)) continue;
      const kept = f.sources.filter((src) => src.authorId !== userId);
      if (kept.length !== f.sources.length) {
        report.sourcesStripped += f.sources.length - kept.length;
        ops.push(() => s.facts.set(k, { ...f, sources: kept }));
      }
    }
    for (const [k, e] of s.entities.entries()) {
      if (e.guildId === guildId && e.linkedUserId === userId) {
        report.entitiesUnlinked++;
        ops.push(() => s.entities.set(k, { ...e, linkedUserId: null }));
      }
    }
    // Entities only the purged facts or relations point at would keep the member's words.
    const candidates = new Set<string>();
    for (const k of doomedLinks) {
      const l = s.links.get(k);
      if (l?.nodeType === 'entity') candidates.add(l.nodeId);
    }
    for (const rowId of doomedRelations) {
      const r = s.relations.get(rowId);
      if (r?.srcType === 'entity') candidates.add(r.srcId);
      if (r?.dstType === 'entity') candidates.add(r.dstId);
    }
    for (const slug of candidates) {
      const linked = [...s.links.entries()].some(
        ([k, l]) =>
          l.guildId === guildId && l.nodeType === 'entity' && l.nodeId === slug && !doomedLinks.has(k),
      );
      const related = [...s.relations.entries()].some(
        ([rowId, r]) =>
          r.guildId === guildId &&
          !doomedRelations.has(rowId) &&
          ((r.srcType === 'entity' && r.srcId === slug) || (r.dstType === 'entity' && r.dstId === slug)),
      );
      if (linked || related || !s.entities.has(key(guildId, slug))) continue;
      report.entities++;
      ops.push(() => s.entities.delete(key(guildId, slug)));
    }
    if (!dryRun) for (const op of ops) op();
    return {
      guildId,
      userId,
      dryRun,
      ...report,
      budgetRows: 0,
      optOutKept: s.optOuts.has(key(guildId, userId)),
    };
  }

  async exportGuild(guildId: string): Promise<GuildSnapshot> {
    await enter(this.#state);
    const s = this.#state;
    const facts = [...s.facts.values()]
      .filter((f) => f.guildId === guildId)
      .sort((a, b) => (a.id < b.id ? -1 : 1));
    return {
      guildId,
      facts: facts.map((f) => ({
        ...f,
        attribution: { ...f.attribution },
        sources: [...f.sources],
        relatedUserIds: [...f.relatedUserIds],
        entitySlugs: [...f.entitySlugs],
      })),
      history: facts.flatMap((f) => [...(s.history.get(key(guildId, f.id)) ?? [])]),
      links: [...s.links.values()].filter((l) => l.guildId === guildId),
      relations: [...s.relations.values()]
        .filter((r) => r.guildId === guildId)
        .map(({ rowId: _r, ...r }) => ({ ...r, evidenceFactIds: [...r.evidenceFactIds] })),
      entities: [...s.entities.values()]
        .filter((e) => e.guildId === guildId)
        .map((e) => ({ ...e, aliases: [...e.aliases] })),
      aliases: [...s.aliases.values()].filter((a) => a.guildId === guildId),
      digests: [...s.digests.values()].filter((d) => d.guildId === guildId),
      optOuts: await this.optedOutUsers(guildId),
    };
  }

  async importGuild(snapshot: GuildSnapshot): Promise<ImportCounts> {
    await enter(this.#state);
    return this.#state.transaction(async () => {
      const s = this.#state;
      const g = snapshot.guildId;
      for (const f of snapshot.facts) s.facts.set(key(g, f.id), { ...f, guildId: g } as Fact);
      const byFact = new Map<string, typeof snapshot.history>();
      for (const h of snapshot.history)
        byFact.set(h.factId, [...(byFact.get(h.factId) ?? []), { ...h, guildId: g }]);
      for (const [factId, entries] of byFact) s.history.set(key(g, factId), entries);
      for (const l of snapshot.links)
        s.links.set(key(g, l.factId, l.nodeType, l.nodeId, l.kind), { ...l, guildId: g });
      for (const r of snapshot.relations) {
        const existing = [...s.relations.values()].find(
          (x) =>
            x.guildId === g &&
            x.srcType === r.srcType &&
            x.srcId === r.srcId &&
            x.dstType === r.dstType &&
            x.dstId === r.dstId &&
            x.verb === r.verb &&
            x.validFrom.getTime() === r.validFrom.getTime(),
        );
        const rowId = existing?.rowId ?? s.nextRelationRow++;
        s.relations.set(rowId, { ...r, guildId: g, rowId });
      }
      for (const e of snapshot.entities) s.entities.set(key(g, e.slug), { ...e, guildId: g });
      for (const a of snapshot.aliases) s.aliases.set(key(g, a.alias, a.userId), { ...a, guildId: g });
      for (const d of snapshot.digests) s.digests.set(digestKey(g, d.subjectId), { ...d, guildId: g });
      for (const u of snapshot.optOuts)
        if (!s.optOuts.has(key(g, u))) s.optOuts.set(key(g, u), snapshot.facts[0]?.createdAt ?? new Date(0));
      return {
        facts: snapshot.facts.length,
        relations: snapshot.relations.length,
        entities: snapshot.entities.length,
        aliases: snapshot.aliases.length,
        links: snapshot.links.length,
        history: snapshot.history.length,
        digests: snapshot.digests.length,
      };
    });
  }

  async guildStats(guildId: string): Promise<GuildStats> {
    await enter(this.#state);
    const s = this.#state;
    const byTier: Record<MemoryTier, number> = { short: 0, mid: 0, long: 0, core: 0 };
    const byScope: Record<FactScope, number> = { user: 0, server: 0 };
    let total = 0;
    let active = 0;
    const users = new Set<string>();
    for (const f of s.facts.values()) {
      if (f.guildId !== guildId) continue;
      total++;
      if (!isActive(f)) continue;
      active++;
      byTier[f.tier]++;
      byScope[f.scope]++;
      if (f.subjectId !== null) users.add(f.subjectId);
    }
    const q = { pending: 0, claimed: 0, processed: 0, dead: 0 };
    for (const m of s.messages.values()) if (m.guildId === guildId) q[m.status]++;
    return {
      guildId,
      totalFacts: total,
      activeFacts: active,
      byTier,
      byScope,
      users: users.size,
      entities: [...s.entities.values()].filter((e) => e.guildId === guildId).length,
      relations: [...s.relations.values()].filter((r) => r.guildId === guildId && r.validUntil === null)
        .length,
      aliases: [...s.aliases.values()].filter((a) => a.guildId === guildId).length,
      pending: q.pending,
      inFlight: q.claimed,
      deadLetters: q.dead,
      processed: q.processed,
    };
  }

  async listGuildIds(): Promise<string[]> {
    await enter(this.#state);
    const ids = new Set<string>();
    for (const f of this.#state.facts.values()) ids.add(f.guildId);
    for (const m of this.#state.messages.values()) if (m.kind !== 'session') ids.add(m.guildId);
    return [...ids].sort();
  }
}
