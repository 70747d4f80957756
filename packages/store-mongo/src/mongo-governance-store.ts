import type { Digest, GuildSnapshot, GuildStats } from '@permafrost/core';
import type { ErasureInput, ImportPlan, PurgePlan } from '@permafrost/core/store';
import { GovernanceRolesBase } from '@permafrost/core/store';
import { digestKey, fromDigestDoc, optOutKey, toDigestDoc } from './mongo-admin-mapping.js';
import { chargeCounters, counterTotals } from './mongo-budgets.js';
import type { MongoContext } from './mongo-context.js';
import { MongoErasureLog } from './mongo-erasures.js';
import { docKey, finite, randomToken, requireId, requireString, validDate } from './mongo-keys.js';
import { applyPurge } from './mongo-purge.js';
import { applyImport, exportGuild } from './mongo-snapshot.js';
import { guildStats, listGuildIds } from './mongo-stats.js';

export class MongoGovernanceStore extends GovernanceRolesBase {
  readonly #ctx: MongoContext;
  readonly #erasures: MongoErasureLog;
  /** Names this store's own budget counters (mongo-budgets.ts). */
  readonly #writer = randomToken();

  constructor(ctx: MongoContext) {
    super();
    this.#ctx = ctx;
    this.#erasures = new MongoErasureLog(ctx);
  }

  // The erasure log (purge fencing) lives in its own module.
  override readonly recordErasure = (input: ErasureInput): Promise<number> => this.#erasures.record(input);
  override readonly erasuresSince = (guildId: string, after: number) => this.#erasures.since(guildId, after);
  override readonly pruneErasures = (before: Date): Promise<number> => this.#erasures.prune(before);

  /** The server owns its files (no physical purge): compaction is the operator's (see docs/stores.md). */
  override async compactDeleted(): Promise<void> {
    await this.#ctx.enter();
  }

  override async setOptOut(guildId: string, userId: string, optedOut: boolean, at: Date): Promise<void> {
    await this.#ctx.enter();
    const g = requireId(guildId, 'guildId');
    const u = requireId(userId, 'userId');
    const key = optOutKey(g, u);
    if (optedOut) {
      const doc = { guildId: g, userId: u, at: validDate(at, 'at') };
      await this.#ctx.upsert(this.#ctx.c.optOuts, key, doc);
    } else {
      await this.#ctx.c.optOuts.deleteOne({ _id: key }, this.#ctx.opts());
    }
  }

  override async isOptedOut(guildId: string, userId: string): Promise<boolean> {
    await this.#ctx.enter();
    const key = optOutKey(requireString(guildId, 'guildId'), requireString(userId, 'userId'));
    return (await this.#ctx.readMany(this.#ctx.c.optOuts, [key])).has(key);
  }

  override async optedOutUsers(guildId: string): Promise<string[]> {
    await this.#ctx.enter();
    const docs = await this.#ctx.c.optOuts
      .find(
        { guildId: { $eq: requireString(guildId, 'guildId') } },
        { sort: { userId: 1 }, ...this.#ctx.readOpts() },
      )
      .toArray();
    return docs.map((d) => d.userId);
  }

  override async getDigest(guildId: string, subjectId: string | null): Promise<Digest | null> {
    await this.#ctx.enter();
    const key = digestKey(
      requireString(guildId, 'guildId'),
      subjectId === null ? null : requireString(subjectId, 'subjectId'),
    );
    const doc = (await this.#ctx.readMany(this.#ctx.c.digests, [key])).get(key);
    return doc ? fromDigestDoc(doc) : null;
  }

  override async putDigest(digest: Digest): Promise<void> {
    await this.#ctx.enter();
    const { _id, ...doc } = toDigestDoc(digest);
    await this.#ctx.upsert(this.#ctx.c.digests, _id, doc);
  }

  override async getCursor(guildId: string, key: string): Promise<string | null> {
    await this.#ctx.enter();
    const id = docKey(requireString(guildId, 'guildId'), requireString(key, 'cursor key'));
    return (await this.#ctx.readMany(this.#ctx.c.cursors, [id])).get(id)?.value ?? null;
  }

  override async setCursor(guildId: string, key: string, value: string): Promise<void> {
    await this.#ctx.enter();
    const g = requireId(guildId, 'guildId');
    const k = requireId(key, 'cursor key');
    const doc = { guildId: g, key: k, value: requireString(value, 'cursor value') };
    await this.#ctx.upsert(this.#ctx.c.cursors, docKey(g, k), doc);
  }

  /** One `$inc` of this store's own counters (see mongo-budgets.ts): charges from every process count. */
  override async chargeTokens(guildId: string, periods: readonly string[], tokens: number): Promise<void> {
    await this.#ctx.enterAlone();
    const g = requireId(guildId, 'guildId');
    const n = finite(tokens, 'tokens');
    const list = periods.map((p) => requireId(p, 'period'));
    await chargeCounters(this.#ctx, this.#writer, g, list, n);
  }

  override async tokenUsage(guildId: string, periods: readonly string[]): Promise<Record<string, number>> {
    await this.#ctx.enter();
    const g = requireString(guildId, 'guildId');
    const list = periods.map((p) => requireString(p, 'period'));
    const totals = await counterTotals(this.#ctx, g, list);
    const out: Record<string, number> = {};
    for (const p of list) {
      // defineProperty: a period named "__proto__" stays a plain key.
      Object.defineProperty(out, p, {
        value: totals.get(p) ?? 0,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }

  override async getMeta(key: string): Promise<string | null> {
    await this.#ctx.enter();
    const id = docKey(null, requireString(key, 'meta key'));
    return (await this.#ctx.readMany(this.#ctx.c.meta, [id])).get(id)?.value ?? null;
  }

  override async setMeta(key: string, value: string): Promise<void> {
    await this.#ctx.enter();
    const k = requireId(key, 'meta key');
    const doc = { guildId: null, key: k, value: requireString(value, 'meta value') };
    await this.#ctx.upsert(this.#ctx.c.meta, docKey(null, k), doc);
  }

  override async applyPurge(plan: PurgePlan): Promise<void> {
    await this.#ctx.enter();
    await this.#ctx.transaction(() =>
      applyPurge(this.#ctx, { ...plan, guildId: requireId(plan.guildId, 'guildId') }),
    );
  }

  override async exportGuild(guildId: string): Promise<GuildSnapshot> {
    await this.#ctx.enter();
    return exportGuild(this.#ctx, requireId(guildId, 'guildId'));
  }

  override async applyImport(plan: ImportPlan): Promise<void> {
    await this.#ctx.enter();
    await this.#ctx.transaction(() =>
      applyImport(this.#ctx, { ...plan, guildId: requireId(plan.guildId, 'guildId') }),
    );
  }

  override async guildStats(guildId: string): Promise<GuildStats> {
    await this.#ctx.enter();
    return guildStats(this.#ctx, requireString(guildId, 'guildId'));
  }

  override async listGuildIds(): Promise<string[]> {
    await this.#ctx.enter();
    return listGuildIds(this.#ctx);
  }
}
