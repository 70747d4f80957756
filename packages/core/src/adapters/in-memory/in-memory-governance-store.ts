import type { GuildSnapshot, GuildStats } from '../../model/admin.js';
import type { FactScope, MemoryTier } from '../../model/enums.js';
import { isActive } from '../../model/fact.js';
import type { ImportPlan, PurgePlan } from '../../model/governance-plans.js';
import type { Digest } from '../../model/graph.js';
import type { ErasureInput } from '../../ports/erasure-log.js';
import { GovernanceRolesBase } from '../../ports/port-bases.js';
import { InMemoryErasureLog } from './in-memory-erasures.js';
import { writeImport, writePurge } from './in-memory-plans.js';
import { enter, key, type MemoryState } from './state.js';

const digestKey = (guildId: string, subjectId: string | null) => key(guildId, subjectId);

export class InMemoryGovernanceStore extends GovernanceRolesBase {
  readonly #state: MemoryState;
  readonly #erasures: InMemoryErasureLog;

  constructor(state: MemoryState) {
    super();
    this.#state = state;
    this.#erasures = new InMemoryErasureLog(state);
  }

  // The erasure log (purge fencing) lives in its own module.
  override readonly recordErasure = (input: ErasureInput): Promise<number> => this.#erasures.record(input);
  override readonly erasuresSince = (guildId: string, after: number) => this.#erasures.since(guildId, after);
  override readonly pruneErasures = (before: Date): Promise<number> => this.#erasures.prune(before);

  /** Deleted values are unreachable once their map entries go: nothing to rewrite. */
  override async compactDeleted(): Promise<void> {
    await enter(this.#state);
  }

  override async setOptOut(guildId: string, userId: string, optedOut: boolean, at: Date): Promise<void> {
    await enter(this.#state);
    if (optedOut) this.#state.optOuts.set(key(guildId, userId), at);
    else this.#state.optOuts.delete(key(guildId, userId));
  }

  override async isOptedOut(guildId: string, userId: string): Promise<boolean> {
    await enter(this.#state);
    return this.#state.optOuts.has(key(guildId, userId));
  }

  override async optedOutUsers(guildId: string): Promise<string[]> {
    await enter(this.#state);
    const prefix = key(guildId, '');
    return [...this.#state.optOuts.entries()]
      .filter(([k]) => k.startsWith(prefix))
      .map(([k]) => k.slice(prefix.length))
      .sort();
  }

  override async getDigest(guildId: string, subjectId: string | null): Promise<Digest | null> {
    await enter(this.#state);
    return this.#state.digests.get(digestKey(guildId, subjectId)) ?? null;
  }

  override async putDigest(digest: Digest): Promise<void> {
    await enter(this.#state);
    this.#state.digests.set(digestKey(digest.guildId, digest.subjectId), digest);
  }

  override async getCursor(guildId: string, k: string): Promise<string | null> {
    await enter(this.#state);
    return this.#state.cursors.get(key(guildId, k)) ?? null;
  }

  override async setCursor(guildId: string, k: string, value: string): Promise<void> {
    await enter(this.#state);
    this.#state.cursors.set(key(guildId, k), value);
  }

  override async chargeTokens(guildId: string, periods: readonly string[], tokens: number): Promise<void> {
    await enter(this.#state);
    for (const p of periods)
      this.#state.budgets.set(key(guildId, p), (this.#state.budgets.get(key(guildId, p)) ?? 0) + tokens);
  }

  override async tokenUsage(guildId: string, periods: readonly string[]): Promise<Record<string, number>> {
    await enter(this.#state);
    const out: Record<string, number> = {};
    for (const p of periods) out[p] = this.#state.budgets.get(key(guildId, p)) ?? 0;
    return out;
  }

  override async getMeta(k: string): Promise<string | null> {
    await enter(this.#state);
    return this.#state.meta.get(k) ?? null;
  }

  override async setMeta(k: string, value: string): Promise<void> {
    await enter(this.#state);
    this.#state.meta.set(k, value);
  }

  override async applyPurge(plan: PurgePlan): Promise<void> {
    await enter(this.#state);
    await this.#state.transaction(async () => writePurge(this.#state, plan));
  }

  override async exportGuild(guildId: string): Promise<GuildSnapshot> {
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
      optOuts: [...s.optOuts.entries()]
        .filter(([k]) => k.startsWith(key(guildId, '')))
        .map(([k, at]) => ({ userId: k.slice(key(guildId, '').length), at }))
        .sort((a, b) => (a.userId < b.userId ? -1 : 1)),
    };
  }

  override async applyImport(plan: ImportPlan): Promise<void> {
    await enter(this.#state);
    await this.#state.transaction(async () => writeImport(this.#state, plan));
  }

  override async guildStats(guildId: string): Promise<GuildStats> {
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

  override async listGuildIds(): Promise<string[]> {
    await enter(this.#state);
    const ids = new Set<string>();
    for (const f of this.#state.facts.values()) ids.add(f.guildId);
    for (const m of this.#state.messages.values()) if (m.kind !== 'session') ids.add(m.guildId);
    return [...ids].sort();
  }
}
