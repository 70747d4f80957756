import type { Entity, Link, Relation } from '@permafrost/core';
import { docKey, finite, requireId, requireString, validDate } from './mongo-keys.js';
import type { EntityDoc, LinkDoc, RelationDoc } from './mongo-memory-docs.js';

export const linkKey = (l: Pick<Link, 'guildId' | 'factId' | 'nodeType' | 'nodeId' | 'kind'>): string =>
  docKey(l.guildId, l.factId, l.nodeType, l.nodeId, l.kind);

export function toLinkDoc(l: Link): LinkDoc {
  const doc = {
    guildId: requireId(l.guildId, 'guildId'),
    factId: requireId(l.factId, 'fact id'),
    nodeType: requireString(l.nodeType, 'nodeType'),
    nodeId: requireId(l.nodeId, 'nodeId'),
    kind: requireString(l.kind, 'kind'),
    createdAt: validDate(l.createdAt, 'createdAt'),
  };
  return { _id: linkKey(doc as Link), ...doc };
}

export function fromLinkDoc(d: LinkDoc): Link {
  return {
    guildId: d.guildId,
    factId: d.factId,
    nodeType: d.nodeType as Link['nodeType'],
    nodeId: d.nodeId,
    kind: d.kind as Link['kind'],
    createdAt: d.createdAt,
  };
}

type RelationIdentity = {
  readonly guildId: string;
  readonly srcType: string;
  readonly srcId: string;
  readonly dstType: string;
  readonly dstId: string;
  readonly verb: string;
};

/** The one active relation per (src, dst, verb) lives at this `_id`: uniqueness without a partial index. */
export const activeRelationKey = (r: RelationIdentity): string =>
  `A${docKey(r.guildId, r.srcType, r.srcId, r.dstType, r.dstId, r.verb)}`;

/** Ended relations are moved to their own `_id`, named by the instance (`rid`) so a retry converges. */
export const endedRelationKey = (r: RelationIdentity & { validFrom: Date; rid: string }): string =>
  `E${docKey(r.guildId, r.srcType, r.srcId, r.dstType, r.dstId, r.verb, String(r.validFrom.getTime()), r.rid)}`;

export function relationKeyOf(r: Relation & { rid: string }): string {
  return r.validUntil === null ? activeRelationKey(r) : endedRelationKey(r);
}

export function toRelationDoc(r: Relation, rid: string): RelationDoc {
  const doc: RelationDoc = {
    _id: '',
    ep: '',
    rid,
    guildId: requireId(r.guildId, 'guildId'),
    srcType: requireString(r.srcType, 'srcType'),
    srcId: requireId(r.srcId, 'srcId'),
    dstType: requireString(r.dstType, 'dstType'),
    dstId: requireId(r.dstId, 'dstId'),
    verb: requireId(r.verb, 'verb'),
    polarity: requireString(r.polarity, 'polarity'),
    weight: finite(r.weight, 'weight'),
    occurrences: finite(r.occurrences, 'occurrences'),
    confidence: finite(r.confidence, 'confidence'),
    evidenceFactIds: r.evidenceFactIds.map((e) => requireString(e, 'evidenceFactIds')),
    validFrom: validDate(r.validFrom, 'validFrom'),
    validUntil: r.validUntil === null ? null : validDate(r.validUntil, 'validUntil'),
    updatedAt: validDate(r.updatedAt, 'updatedAt'),
  };
  doc._id = doc.validUntil === null ? activeRelationKey(r) : endedRelationKey({ ...r, rid });
  return doc;
}

export function fromRelationDoc(d: RelationDoc): Relation {
  return {
    guildId: d.guildId,
    srcType: d.srcType as Relation['srcType'],
    srcId: d.srcId,
    dstType: d.dstType as Relation['dstType'],
    dstId: d.dstId,
    verb: d.verb,
    polarity: d.polarity as Relation['polarity'],
    weight: d.weight,
    occurrences: d.occurrences,
    confidence: d.confidence,
    evidenceFactIds: [...d.evidenceFactIds],
    validFrom: d.validFrom,
    validUntil: d.validUntil ?? null,
    updatedAt: d.updatedAt,
  };
}

export const entityKey = (guildId: string, slug: string): string => docKey(guildId, slug);

export function toEntityDoc(e: Entity): EntityDoc {
  const guildId = requireId(e.guildId, 'guildId');
  const slug = requireId(e.slug, 'slug');
  return {
    _id: entityKey(guildId, slug),
    ep: '',
    guildId,
    slug,
    name: requireString(e.name, 'name'),
    kind: requireString(e.kind, 'kind'),
    aliases: e.aliases.map((a) => requireString(a, 'aliases')),
    factCount: finite(e.factCount, 'factCount'),
    linkedUserId: e.linkedUserId === null ? null : requireString(e.linkedUserId, 'linkedUserId'),
    createdAt: validDate(e.createdAt, 'createdAt'),
    updatedAt: validDate(e.updatedAt, 'updatedAt'),
  };
}

export function fromEntityDoc(d: EntityDoc): Entity {
  return {
    guildId: d.guildId,
    slug: d.slug,
    name: d.name,
    kind: d.kind as Entity['kind'],
    aliases: [...d.aliases],
    factCount: d.factCount,
    linkedUserId: d.linkedUserId ?? null,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
  };
}
