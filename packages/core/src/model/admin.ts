import { z } from 'zod';
import type { FactScope, MemoryTier } from './enums.js';
import { factHistoryEntrySchema, factSchema } from './fact.js';
import { aliasSchema, digestSchema, entitySchema, linkSchema, relationSchema } from './graph.js';

export const EXPORT_FORMAT = 'permafrost.guild-export';
export const EXPORT_VERSION = 1;

/** Versioned, self-contained dump of one guild's memory (vectors are re-computed on import). */
export const guildExportSchema = z
  .object({
    format: z.literal(EXPORT_FORMAT),
    version: z.literal(EXPORT_VERSION),
    guildId: z.string().min(1),
    exportedAt: z.coerce.date(),
    facts: z.array(factSchema),
    history: z.array(factHistoryEntrySchema),
    links: z.array(linkSchema),
    relations: z.array(relationSchema),
    entities: z.array(entitySchema),
    aliases: z.array(aliasSchema),
    digests: z.array(digestSchema),
    optOuts: z.array(z.string()),
  })
  .strict();
export type GuildExport = z.output<typeof guildExportSchema>;
export type GuildExportInput = z.input<typeof guildExportSchema>;

/** The store-level content of an export, without the envelope. */
export type GuildSnapshot = Omit<GuildExport, 'format' | 'version' | 'exportedAt'>;

export interface PurgeReport {
  readonly guildId: string;
  readonly userId: string;
  readonly dryRun: boolean;
  readonly facts: number;
  readonly vectors: number;
  readonly history: number;
  readonly links: number;
  readonly relations: number;
  readonly aliases: number;
  readonly digests: number;
  readonly messages: number;
  readonly sourcesStripped: number;
  readonly entitiesUnlinked: number;
  /** Entities no other fact or relation refers to once the member's are gone. */
  readonly entities: number;
  readonly budgetRows: number;
  /** The opt-out record is kept so consent survives the purge; `setOptOut(false)` removes it. */
  readonly optOutKept: boolean;
}

/** What `admin.backup` (and a restore) verified about a database copy. */
export interface BackupManifest {
  /** Absolute path of the copy. */
  readonly path: string;
  /** SHA-256 of the copy's bytes (hex), for checking a file moved elsewhere. */
  readonly sha256: string;
  readonly bytes: number;
  /** Schema version of the copy (equal to the store's). */
  readonly schemaVersion: number;
  /** Row counts of the copy's tables (facts, messages, …), read back from the copy. */
  readonly counts: Readonly<Record<string, number>>;
  readonly createdAt: Date;
}

export interface GuildStats {
  readonly guildId: string;
  readonly totalFacts: number;
  readonly activeFacts: number;
  readonly byTier: Readonly<Record<MemoryTier, number>>;
  readonly byScope: Readonly<Record<FactScope, number>>;
  readonly users: number;
  readonly entities: number;
  readonly relations: number;
  readonly aliases: number;
  readonly pending: number;
  readonly inFlight: number;
  readonly deadLetters: number;
  readonly processed: number;
}
