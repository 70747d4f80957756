import { z } from 'zod';
import { sourceChannelSchema } from './audience.js';
import { AliasSource, EdgeKind, EntityKind, NodeType, Polarity } from './enums.js';

const values = <T extends Record<string, string>>(o: T) => Object.values(o) as [T[keyof T], ...T[keyof T][]];

export const nodeRefSchema = z.object({ type: z.enum(values(NodeType)), id: z.string().min(1) }).strict();
export type NodeRef = Readonly<z.output<typeof nodeRefSchema>>;

export const linkSchema = z
  .object({
    guildId: z.string(),
    factId: z.string(),
    nodeType: z.enum(values(NodeType)),
    nodeId: z.string(),
    kind: z.enum(values(EdgeKind)),
    createdAt: z.coerce.date(),
  })
  .strict();
export type Link = Readonly<z.output<typeof linkSchema>>;

export const relationSchema = z
  .object({
    guildId: z.string(),
    srcType: z.enum(values(NodeType)),
    srcId: z.string(),
    dstType: z.enum(values(NodeType)),
    dstId: z.string(),
    verb: z.string().min(2).max(48),
    polarity: z.enum(values(Polarity)),
    weight: z.number().min(0),
    occurrences: z.number().int().min(1),
    confidence: z.number().min(0).max(1),
    evidenceFactIds: z.array(z.string()).max(8),
    validFrom: z.coerce.date(),
    validUntil: z.coerce.date().nullable(),
    updatedAt: z.coerce.date(),
  })
  .strict();
export type Relation = Readonly<
  Omit<z.output<typeof relationSchema>, 'evidenceFactIds'> & { evidenceFactIds: readonly string[] }
>;

export const entitySchema = z
  .object({
    guildId: z.string(),
    slug: z.string().min(1),
    name: z.string().min(1),
    kind: z.enum(values(EntityKind)),
    aliases: z.array(z.string()),
    factCount: z.number().int().min(0),
    linkedUserId: z.string().nullable(),
    createdAt: z.coerce.date(),
    updatedAt: z.coerce.date(),
  })
  .strict();
export type Entity = Readonly<
  Omit<z.output<typeof entitySchema>, 'aliases'> & { aliases: readonly string[] }
>;

export const aliasSchema = z
  .object({
    guildId: z.string(),
    alias: z.string().min(1),
    userId: z.string().min(1),
    source: z.enum(values(AliasSource)),
    weight: z.number().min(0).max(3),
    updatedAt: z.coerce.date(),
  })
  .strict();
export type Alias = Readonly<z.output<typeof aliasSchema>>;

export const digestSchema = z
  .object({
    guildId: z.string(),
    subjectId: z.string().nullable(),
    text: z.string(),
    generatedAt: z.coerce.date(),
    sourceFactCount: z.number().int().min(0),
    /**
     * Channels of the facts it summarises (null: written before digests kept them, so unknown);
     * shown only to audiences that may see all of them.
     */
    channels: z.array(sourceChannelSchema).nullable().default(null),
  })
  .strict();
/** A short profile summary of a subject (or the server when subjectId is null). */
export type Digest = Readonly<z.output<typeof digestSchema>>;

/**
 * A stored relation named by its natural key: the edge (src, dst, verb) and when it started.
 * Plans name the relations they delete or rewrite this way.
 */
export type RelationRef = Pick<Relation, 'srcType' | 'srcId' | 'dstType' | 'dstId' | 'verb' | 'validFrom'>;

/** The natural key of a relation (or a ref) as one string, for sets and maps. */
export function relationRefKey(r: RelationRef): string {
  return `${relationKey(r)}|${r.validFrom.getTime()}`;
}

/** The ref of a relation (a copy of its key fields). */
export function relationRefOf(r: RelationRef): RelationRef {
  return {
    srcType: r.srcType,
    srcId: r.srcId,
    dstType: r.dstType,
    dstId: r.dstId,
    verb: r.verb,
    validFrom: r.validFrom,
  };
}

/** Stable identity of a relation: one active edge per (src, dst, verb). */
export function relationKey(r: Pick<Relation, 'srcType' | 'srcId' | 'dstType' | 'dstId' | 'verb'>): string {
  return `${r.srcType}:${r.srcId}|${r.dstType}:${r.dstId}|${r.verb}`;
}

export function nodeKey(n: NodeRef): string {
  return `${n.type}:${n.id}`;
}

/** An entity mentioned once: created when new, otherwise merged by core's `mergeEntity`. */
export interface EntityUpsert {
  readonly guildId: string;
  readonly slug: string;
  readonly name: string;
  readonly kind: EntityKind;
  /** Normalized aliases, merged into the existing set. */
  readonly aliases: readonly string[];
  readonly at: Date;
  /** Added to the entity's fact count (which never goes below 0); default 0. */
  readonly factDelta?: number;
}

/** What new facts add to the graph, applied by `GraphStore.applyGraphWrites`. */
export interface GraphWrites {
  /** Each as `upsertEntity`, in order. */
  readonly entities: readonly EntityUpsert[];
  /** Each as `upsertRelation`, in order, once the entities are stored. */
  readonly relations: readonly RelationUpsert[];
  /** As `addLinks`, once the entities are stored. */
  readonly links: readonly Link[];
}

/** A relation observed once (the store merges it into the active edge or starts one). */
export interface RelationUpsert {
  readonly guildId: string;
  readonly src: NodeRef;
  readonly dst: NodeRef;
  readonly verb: string;
  readonly polarity: Polarity;
  readonly confidence: number;
  readonly evidenceFactId: string;
  readonly at: Date;
}
