import { z } from 'zod';
import { ErrorCode, MemoryError } from '../errors/index.js';
import { importSnapshot } from '../governance/guild-import.js';
import { allReactionPages } from '../governance/paged-reads.js';
import { purgeMember } from '../governance/purge.js';
import type { IngestDeps } from '../ingest/deps.js';
import {
  type BackupManifest,
  EXPORT_FORMAT,
  EXPORT_VERSION,
  exportSchemaFor,
  type GuildExport,
  type ImportCounts,
  type PurgeReport,
  upgradeExport,
} from '../model/admin.js';
import { type Fact, isActive } from '../model/fact.js';
import type { Alias, Digest, Relation } from '../model/graph.js';
import type { StoredMessage } from '../model/message.js';
import type { Reaction } from '../model/reaction.js';
import { idField as id, parseInput, userIdField } from '../validation/index.js';

const EMBED_CHUNK = 64;

const memberSchema = z.object({ guildId: id, userId: userIdField }).strict();
const optOutSchema = z.object({ guildId: id, userId: userIdField, optedOut: z.boolean() }).strict();
const purgeSchema = z.object({ guildId: id, userId: userIdField, dryRun: z.boolean().optional() }).strict();
const guildSchema = z.object({ guildId: id }).strict();
/** `data` is checked against the export format on its own (its issues are reported under `data`). */
const importSchema = z.object({ data: z.unknown(), guildId: id.optional() }).strict();
/** A file path, not user content: bounded, no NUL. */
const backupSchema = z
  .object({
    path: z
      .string()
      .min(1)
      .max(4096)
      .refine((p) => !p.includes('\u0000'), 'no NUL in paths'),
  })
  .strict();

/** Everything stored about one member of one guild (a data-access export). */
export interface UserExport {
  readonly format: 'permafrost.user-export';
  readonly version: 1;
  readonly guildId: string;
  readonly userId: string;
  readonly exportedAt: Date;
  readonly optedOut: boolean;
  readonly factsAbout: readonly Fact[];
  readonly factsStated: readonly Fact[];
  readonly aliases: readonly Alias[];
  readonly relations: readonly Relation[];
  readonly digest: Digest | null;
  readonly messages: readonly StoredMessage[];
  /** The member's reactions to messages (who reacted with what, never message text). */
  readonly reactions: readonly Reaction[];
}

export interface AdminApiDeps extends IngestDeps {
  readonly ensureStarted: () => Promise<void>;
  /** Clears per-process caches that may hold the user's data (names, hot conversation tier). */
  readonly forgetUserCaches: (guildId: string, userId: string) => void;
}

export function createAdminApi(deps: AdminApiDeps) {
  const { store, clock } = deps;

  /** Re-computes vectors for imported facts (active flag kept, so time travel still works). */
  const reembed = async (guildId: string, facts: readonly Fact[]) => {
    for (let i = 0; i < facts.length; i += EMBED_CHUNK) {
      const chunk = facts.slice(i, i + EMBED_CHUNK);
      const vectors = await deps.embedder.embed(chunk.map((f) => f.text));
      await store.vectors.upsert(
        chunk.map((f, j) => ({
          kind: 'fact' as const,
          id: f.id,
          guildId,
          subjectId: f.subjectId,
          active: isActive(f),
          vector: vectors[j] as Float32Array,
        })),
      );
    }
  };

  /**
   * Clears the profile digests of subjects the member stated facts about: a digest summarises
   * those statements, so after an opt-out it would keep quoting the member. They regenerate from
   * the remaining facts (digests never use statements of members who opted out).
   */
  const clearQuotingDigests = async (guildId: string, userId: string) => {
    const subjects = new Set<string | null>();
    let cursor: string | undefined;
    do {
      const page = await store.facts.list({
        guildId,
        validity: 'any',
        limit: 500,
        ...(cursor ? { cursor } : {}),
      });
      for (const f of page.items)
        if (f.attribution.speakerId === userId && f.subjectId !== userId) subjects.add(f.subjectId);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    for (const subjectId of subjects) {
      const current = await store.digests.getDigest(guildId, subjectId);
      if (current && current.text !== '')
        await store.digests.putDigest({
          guildId,
          subjectId,
          text: '',
          generatedAt: clock.now(),
          sourceFactCount: 0,
          channels: [],
        });
    }
  };

  return {
    /**
     * Opted-out members are never observed or recalled (nor quoted by other members' digests);
     * nothing of theirs is deleted until purge.
     */
    async setOptOut(input: { guildId: string; userId: string; optedOut: boolean }): Promise<void> {
      parseInput(optOutSchema, input, 'admin.setOptOut');
      await deps.ensureStarted();
      await store.consent.setOptOut(input.guildId, input.userId, input.optedOut, clock.now());
      if (input.optedOut) await clearQuotingDigests(input.guildId, input.userId);
    },

    async getOptOut(input: { guildId: string; userId: string }): Promise<boolean> {
      parseInput(memberSchema, input, 'admin.getOptOut');
      await deps.ensureStarted();
      return store.consent.isOptedOut(input.guildId, input.userId);
    },

    /**
     * Removes every trace of a member in a guild (facts about them and facts they stated, vectors,
     * keyword rows, history, links, relations, aliases, digest, their messages, their reactions and
     * the reactions to their messages). A dry run (the default) only counts.
     */
    async purgeUser(input: { guildId: string; userId: string; dryRun?: boolean }): Promise<PurgeReport> {
      parseInput(purgeSchema, input, 'admin.purgeUser');
      await deps.ensureStarted();
      const request = { guildId: input.guildId, userId: input.userId, dryRun: input.dryRun ?? true };
      // The erasure is logged first, in the purge's transaction: a batch that read the member's
      // messages before it checks the log when it commits and drops their data (purge fencing).
      const report = request.dryRun
        ? await purgeMember(store, request)
        : await store.transaction(async () => {
            await store.erasures.recordErasure({
              guildId: request.guildId,
              userId: request.userId,
              messageId: null,
              at: clock.now(),
            });
            return purgeMember(store, request);
          });
      if (!report.dryRun) deps.forgetUserCaches(input.guildId, input.userId);
      return report;
    },

    /**
     * Copies the store to a new file at `path` while the bot keeps running, verifies the copy
     * (integrity, schema version, row counts) and returns its manifest. Stores that cannot
     * (MongoDB: use mongodump/mongorestore, see docs/stores.md) answer BACKUP_UNSUPPORTED.
     */
    async backup(input: { path: string }): Promise<BackupManifest> {
      const v = parseInput(backupSchema, input, 'admin.backup');
      await deps.ensureStarted();
      if (!store.backup)
        throw new MemoryError(
          ErrorCode.BACKUP_UNSUPPORTED,
          `the ${store.name} store cannot back itself up; use its own tools (docs/stores.md)`,
        );
      return store.backup({ path: v.path });
    },

    /** A versioned JSON-ready document of the guild's memory (facts incl. inactive, graph, aliases, digests). */
    async exportGuild(input: { guildId: string }): Promise<GuildExport> {
      parseInput(guildSchema, input, 'admin.exportGuild');
      await deps.ensureStarted();
      const snapshot = await store.admin.exportGuild(input.guildId);
      return { format: EXPORT_FORMAT, version: EXPORT_VERSION, exportedAt: clock.now(), ...snapshot };
    },

    /**
     * Restores an export (validated; version 1 documents are read too), re-embedding every fact
     * with the current embedder. Core plans what is written (governance/import-plan.ts).
     */
    async importGuild(input: { data: unknown; guildId?: string }): Promise<ImportCounts> {
      await deps.ensureStarted();
      parseInput(importSchema, input, 'admin.importGuild');
      const parsed = parseInput(exportSchemaFor(input.data), input.data, 'admin.importGuild', ['data']);
      const { format: _f, version: _v, exportedAt: _e, ...snapshot } = upgradeExport(parsed);
      const guildId = input.guildId ?? snapshot.guildId;
      const counts = await importSnapshot(store, snapshot, guildId);
      await reembed(
        guildId,
        snapshot.facts.map((f) => ({ ...f, guildId })),
      );
      return counts;
    },

    /** Everything stored about one member, for data-access requests. */
    async exportUser(input: { guildId: string; userId: string }): Promise<UserExport> {
      parseInput(memberSchema, input, 'admin.exportUser');
      await deps.ensureStarted();
      const snapshot = await store.admin.exportGuild(input.guildId);
      const u = input.userId;
      const messages = await store.conversation.authorHistory(input.guildId, u, 100_000);
      return {
        format: 'permafrost.user-export',
        version: 1,
        guildId: input.guildId,
        userId: u,
        exportedAt: clock.now(),
        optedOut: snapshot.optOuts.some((o) => o.userId === u),
        factsAbout: snapshot.facts.filter((f) => f.subjectId === u),
        factsStated: snapshot.facts.filter((f) => f.subjectId !== u && f.attribution.speakerId === u),
        aliases: snapshot.aliases.filter((a) => a.userId === u),
        relations: snapshot.relations.filter(
          (r) => (r.srcType === 'user' && r.srcId === u) || (r.dstType === 'user' && r.dstId === u),
        ),
        digest: snapshot.digests.find((d) => d.subjectId === u) ?? null,
        messages,
        reactions: await allReactionPages(store, input.guildId, { userId: u }),
      };
    },
  };
}

export type AdminApi = ReturnType<typeof createAdminApi>;
