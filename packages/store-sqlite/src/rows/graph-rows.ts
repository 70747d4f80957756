import type { Digest, Entity, Link, Relation, SourceChannel } from '@permafrost/core';
import { date, dateOrNull } from './codec.js';

export interface LinkRow {
  readonly guild_id: string;
  readonly fact_id: string;
  readonly node_type: Link['nodeType'];
  readonly node_id: string;
  readonly kind: Link['kind'];
  readonly created_at: number;
}

export const linkFromRow = (r: LinkRow): Link => ({
  guildId: r.guild_id,
  factId: r.fact_id,
  nodeType: r.node_type,
  nodeId: r.node_id,
  kind: r.kind,
  createdAt: date(r.created_at),
});

/** The select list (alias `l`) of a node's links read through `rawRows`, paired with `linkFromValues`. */
export const LINK_SELECT = 'l.fact_id, l.kind, l.created_at';

/** A link of `node` (whose guild and node the query fixed) from a raw row selected with LINK_SELECT. */
export const linkFromValues = (
  v: readonly unknown[],
  guildId: string,
  node: { readonly type: Link['nodeType']; readonly id: string },
): Link => ({
  guildId,
  factId: v[0] as string,
  nodeType: node.type,
  nodeId: node.id,
  kind: v[1] as Link['kind'],
  createdAt: date(v[2] as number),
});

export interface RelationRow {
  readonly row_id: number;
  readonly guild_id: string;
  readonly src_type: Relation['srcType'];
  readonly src_id: string;
  readonly dst_type: Relation['dstType'];
  readonly dst_id: string;
  readonly verb: string;
  readonly polarity: Relation['polarity'];
  readonly weight: number;
  readonly occurrences: number;
  readonly confidence: number;
  readonly evidence: string;
  readonly valid_from: number;
  readonly valid_until: number | null;
  readonly updated_at: number;
}

export const relationFromRow = (r: RelationRow): Relation => ({
  guildId: r.guild_id,
  srcType: r.src_type,
  srcId: r.src_id,
  dstType: r.dst_type,
  dstId: r.dst_id,
  verb: r.verb,
  polarity: r.polarity,
  weight: r.weight,
  occurrences: r.occurrences,
  confidence: r.confidence,
  evidenceFactIds: JSON.parse(r.evidence) as string[],
  validFrom: date(r.valid_from),
  validUntil: dateOrNull(r.valid_until),
  updatedAt: date(r.updated_at),
});

export interface EntityRow {
  readonly guild_id: string;
  readonly slug: string;
  readonly name: string;
  readonly kind: Entity['kind'];
  readonly aliases: string;
  readonly fact_count: number;
  readonly linked_user_id: string | null;
  readonly created_at: number;
  readonly updated_at: number;
}

export const entityFromRow = (r: EntityRow): Entity => ({
  guildId: r.guild_id,
  slug: r.slug,
  name: r.name,
  kind: r.kind,
  aliases: JSON.parse(r.aliases) as string[],
  factCount: r.fact_count,
  linkedUserId: r.linked_user_id,
  createdAt: date(r.created_at),
  updatedAt: date(r.updated_at),
});

export interface DigestRow {
  readonly guild_id: string;
  readonly subject_id: string | null;
  readonly text: string;
  readonly generated_at: number;
  readonly source_fact_count: number;
  /** JSON array of `{ channelId, parentId }`; null when written before digests kept channels. */
  readonly channels: string | null;
}

export const digestFromRow = (r: DigestRow): Digest => ({
  guildId: r.guild_id,
  subjectId: r.subject_id,
  text: r.text,
  generatedAt: date(r.generated_at),
  sourceFactCount: r.source_fact_count,
  channels: r.channels === null ? null : (JSON.parse(r.channels) as SourceChannel[]),
});
