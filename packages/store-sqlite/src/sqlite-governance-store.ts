import type { Digest, FactScope, GuildSnapshot, GuildStats, MemoryTier } from '@permafrost/core';
import type { ErasureInput, ImportPlan, PurgePlan } from '@permafrost/core/store';
import { GovernanceRolesBase } from '@permafrost/core/store';
import type { SqliteConnection } from './connection.js';
import type { ErasureTable } from './erasure-table.js';
import type { GuildSnapshots } from './guild-snapshot.js';
import type { PurgeWriter } from './purge.js';
import { type DigestRow, digestFromRow } from './rows/graph-rows.js';
import { truncateWal } from './wal-truncate.js';

/** Consent, digests, cursors, budgets, metadata and whole-guild operations. */
export class SqliteGovernanceStore extends GovernanceRolesBase {
  readonly #c: SqliteConnection;
  readonly #snapshots: GuildSnapshots;
  readonly #purge: PurgeWriter;
  readonly #erasures: ErasureTable;

  constructor(
    connection: SqliteConnection,
    snapshots: GuildSnapshots,
    purge: PurgeWriter,
    erasures: ErasureTable,
  ) {
    super();
    this.#c = connection;
    this.#snapshots = snapshots;
    this.#purge = purge;
    this.#erasures = erasures;
  }

  // The erasure log (purge fencing) lives in its own module.
  override readonly recordErasure = (input: ErasureInput): Promise<number> => this.#erasures.record(input);
  override readonly erasuresSince = (guildId: string, after: number) => this.#erasures.since(guildId, after);
  override readonly pruneErasures = (before: Date): Promise<number> => this.#erasures.prune(before);

  /**
   * FTS5 secure-delete removes postings but may keep a deleted term's bytes in a segment leaf:
   * merging every segment rewrites both indexes without them; `secure_delete` zeroes freed pages.
   */
  override async compactDeleted(): Promise<void> {
    await this.#c.write(() => {
      this.#c.stmt("INSERT INTO facts_fts (facts_fts) VALUES ('optimize')").run();
      this.#c.stmt("INSERT INTO messages_fts (messages_fts) VALUES ('optimize')").run();
    });
    await this.#c.run(() => this.#c.afterCommit(() => truncateWal(this.#c)));
  }

  override async setOptOut(guildId: string, userId: string, optedOut: boolean, at: Date): Promise<void> {
    await this.#c.run(() =>
      optedOut
        ? this.#c
            .stmt('INSERT OR REPLACE INTO opt_outs (guild_id, user_id, at) VALUES (?, ?, ?)')
            .run(guildId, userId, at.getTime())
        : this.#c.stmt('DELETE FROM opt_outs WHERE guild_id = ? AND user_id = ?').run(guildId, userId),
    );
  }

  override isOptedOut(guildId: string, userId: string): Promise<boolean> {
    return this.#c.run(
      () =>
        this.#c.stmt('SELECT 1 FROM opt_outs WHERE guild_id = ? AND user_id = ?').get(guildId, userId) !==
        undefined,
    );
  }

  override optedOutUsers(guildId: string): Promise<string[]> {
    return this.#c.run(() =>
      (
        this.#c.stmt('SELECT user_id FROM opt_outs WHERE guild_id = ? ORDER BY user_id').all(guildId) as {
          user_id: string;
        }[]
      ).map((r) => r.user_id),
    );
  }

  override getDigest(guildId: string, subjectId: string | null): Promise<Digest | null> {
    return this.#c.run(() => {
      const row = this.#c
        .stmt('SELECT * FROM digests WHERE guild_id = ? AND subject_id IS ? ORDER BY row_id DESC LIMIT 1')
        .get(guildId, subjectId) as DigestRow | undefined;
      return row ? digestFromRow(row) : null;
    });
  }

  override async putDigest(digest: Digest): Promise<void> {
    await this.#c.write(() => this.#snapshots.putDigest(digest));
  }

  override getCursor(guildId: string, key: string): Promise<string | null> {
    return this.#c.run(() => {
      const row = this.#c
        .stmt('SELECT value FROM cursors WHERE guild_id = ? AND key = ?')
        .get(guildId, key) as { value: string } | undefined;
      return row?.value ?? null;
    });
  }

  override async setCursor(guildId: string, key: string, value: string): Promise<void> {
    await this.#c.run(() =>
      this.#c
        .stmt('INSERT OR REPLACE INTO cursors (guild_id, key, value) VALUES (?, ?, ?)')
        .run(guildId, key, value),
    );
  }

  override async chargeTokens(guildId: string, periods: readonly string[], tokens: number): Promise<void> {
    await this.#c.write(() => {
      const charge = this.#c.stmt(
        `INSERT INTO budgets (guild_id, period, tokens) VALUES (?, ?, ?)
           ON CONFLICT (guild_id, period) DO UPDATE SET tokens = tokens + excluded.tokens`,
      );
      for (const p of periods) charge.run(guildId, p, tokens);
    });
  }

  override tokenUsage(guildId: string, periods: readonly string[]): Promise<Record<string, number>> {
    return this.#c.run(() => {
      const read = this.#c.stmt('SELECT tokens FROM budgets WHERE guild_id = ? AND period = ?');
      const out: Record<string, number> = {};
      for (const p of periods) out[p] = (read.get(guildId, p) as { tokens: number } | undefined)?.tokens ?? 0;
      return out;
    });
  }

  override getMeta(key: string): Promise<string | null> {
    return this.#c.run(
      () =>
        (this.#c.stmt('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)
          ?.value ?? null,
    );
  }

  override async setMeta(key: string, value: string): Promise<void> {
    await this.#c.run(() =>
      this.#c.stmt('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(key, value),
    );
  }

  /** Writes the plan atomically (joining an open transaction); the WAL is truncated after the commit. */
  override async applyPurge(plan: PurgePlan): Promise<void> {
    await this.#c.write(() => this.#purge.apply(plan));
    await this.#c.run(() => this.#c.afterCommit(() => this.#purge.checkpoint()));
  }

  override exportGuild(guildId: string): Promise<GuildSnapshot> {
    return this.#c.run(() => this.#c.snapshot(() => this.#snapshots.export(guildId)));
  }

  override async applyImport(plan: ImportPlan): Promise<void> {
    await this.#c.write(() => this.#snapshots.apply(plan));
  }

  override guildStats(guildId: string): Promise<GuildStats> {
    return this.#c.run(() =>
      this.#c.snapshot((): GuildStats => {
        const c = this.#c;
        const n = (sql: string) =>
          (c.stmt(`SELECT count(*) AS n FROM ${sql}`).get(guildId) as { n: number }).n;
        const byTier: Record<MemoryTier, number> = { short: 0, mid: 0, long: 0, core: 0 };
        const byScope: Record<FactScope, number> = { user: 0, server: 0 };
        let active = 0;
        const groups = c
          .stmt(
            `SELECT tier, scope, count(*) AS n FROM facts WHERE guild_id = ? AND superseded_by_id IS NULL
               AND valid_until IS NULL GROUP BY tier, scope`,
          )
          .all(guildId) as { tier: MemoryTier; scope: FactScope; n: number }[];
        for (const g of groups) {
          active += g.n;
          byTier[g.tier] += g.n;
          byScope[g.scope] += g.n;
        }
        const q = { pending: 0, claimed: 0, processed: 0, dead: 0 };
        for (const r of c.stmt('SELECT status, n FROM message_counts WHERE guild_id = ?').all(guildId) as {
          status: keyof typeof q;
          n: number;
        }[])
          if (r.status in q) q[r.status] = r.n;
        return {
          guildId,
          totalFacts: n('facts WHERE guild_id = ?'),
          activeFacts: active,
          byTier,
          byScope,
          users: n(
            `(SELECT DISTINCT subject_id FROM facts WHERE guild_id = ? AND subject_id IS NOT NULL
               AND superseded_by_id IS NULL AND valid_until IS NULL)`,
          ),
          entities: n('entities WHERE guild_id = ?'),
          relations: n('relations WHERE guild_id = ? AND valid_until IS NULL'),
          aliases: n('aliases WHERE guild_id = ?'),
          pending: q.pending,
          inFlight: q.claimed,
          deadLetters: q.dead,
          processed: q.processed,
        };
      }),
    );
  }

  override listGuildIds(): Promise<string[]> {
    return this.#c.run(() =>
      (
        this.#c
          .stmt(
            `SELECT DISTINCT guild_id FROM facts
             UNION
             SELECT guild_id FROM message_counts mc WHERE EXISTS (
               SELECT 1 FROM messages m WHERE m.guild_id = mc.guild_id AND m.kind <> 'session')
             ORDER BY 1`,
          )
          .all() as { guild_id: string }[]
      ).map((r) => r.guild_id),
    );
  }
}
