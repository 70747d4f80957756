import { z } from 'zod';
import { channelsOfSources } from './audience.js';
import type { FactScope, MemoryTier } from './enums.js';
import { type Fact, factHistoryEntrySchema, factSchema } from './fact.js';
import {
  aliasSchema,
  digestSchema,
  type Entity,
  entitySchema,
  linkSchema,
  type Relation,
  relationSchema,
} from './graph.js';

export const EXPORT_FORMAT = 'permafrost.guild-export';
/** 2: opt-outs carry the date they were recorded. Version 1 documents are still read. */
export const EXPORT_VERSION = 2;

/** A member's opt-out as exported: who, and since when. */
export const optOutSchema = z.object({ userId: z.string().min(1), at: z.coerce.date() }).strict();
export type OptOut = Readonly<z.output<typeof optOutSchema>>;

const exportBody = {
  format: z.literal(EXPORT_FORMAT),
  guildId: z.string().min(1),
  exportedAt: z.coerce.date(),
  /** Facts; `channels` is absent in exports written before facts kept their channels. */
  facts: z.array(factSchema.extend({ channels: factSchema.shape.channels.optional() })),
  history: z.array(factHistoryEntrySchema),
  links: z.array(linkSchema),
  relations: z.array(relationSchema),
  entities: z.array(entitySchema),
  aliases: z.array(aliasSchema),
  digests: z.array(digestSchema),
};

/** Versioned, self-contained dump of one guild's memory (vectors are re-computed on import). */
export const guildExportSchema = z
  .object({ ...exportBody, version: z.literal(EXPORT_VERSION), optOuts: z.array(optOutSchema) })
  .strict();
/** An export as read, before `upgradeExport` (facts of old exports may lack channels). */
type ParsedExport = z.output<typeof guildExportSchema>;

/** An export as written: every fact carries its channels. */
export type GuildExport = Omit<z.output<typeof guildExportSchema>, 'facts' | 'relations' | 'entities'> & {
  readonly facts: readonly Fact[];
  readonly relations: readonly Relation[];
  readonly entities: readonly Entity[];
};
export type GuildExportInput = z.input<typeof guildExportSchema>;

/** The first export format: opt-outs were bare member ids. */
export const guildExportV1Schema = z
  .object({ ...exportBody, version: z.literal(1), optOuts: z.array(z.string().min(1)) })
  .strict();
export type GuildExportV1 = z.output<typeof guildExportV1Schema>;

/**
 * The schema a document is read with: the one of its declared version when this release reads
 * that version, otherwise the current one (whose issues then name the version it expects).
 */
export function exportSchemaFor(doc: unknown): typeof guildExportSchema | typeof guildExportV1Schema {
  const version =
    typeof doc === 'object' && doc !== null ? (doc as { version?: unknown }).version : undefined;
  return version === 1 ? guildExportV1Schema : guildExportSchema;
}

/**
 * A parsed export of any readable version as the current one. A version 1 document does not say
 * since when its members opted out, only that they had by the time it was written: their opt-outs
 * are dated `exportedAt`, the latest instant the document vouches for.
 */
export function upgradeExport(doc: ParsedExport | GuildExportV1): GuildExport {
  // Facts exported before facts kept their channels: the channels of their source refs.
  const facts = doc.facts.map((f) => ({ ...f, channels: f.channels ?? channelsOfSources(f.sources) }));
  if (doc.version === EXPORT_VERSION) return { ...doc, facts };
  return {
    ...doc,
    facts,
    version: EXPORT_VERSION,
    optOuts: doc.optOuts.map((userId) => ({ userId, at: doc.exportedAt })),
  };
}

/** The store-level content of an export, without the envelope. */
export type GuildSnapshot = Omit<GuildExport, 'format' | 'version' | 'exportedAt'>;

/** Rows an import wrote, by kind. */
export interface ImportCounts {
  readonly facts: number;
  readonly relations: number;
  readonly entities: number;
  readonly aliases: number;
  readonly links: number;
  readonly history: number;
  readonly digests: number;
}

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
  /** Reactions: the member's own and those to their messages. */
  readonly reactions: number;
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
