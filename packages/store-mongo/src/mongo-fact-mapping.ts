import { type Fact, type FactHistoryEntry, type FactPatch, isActive, type SourceRef } from '@permafrost/core';
import { channelsOfSources, indexTerms } from '@permafrost/core/store';
import { ObjectId } from 'mongodb';
import {
  docKey,
  finite,
  nullableDate,
  requireId,
  requireString,
  SERVER_SCOPE,
  validDate,
} from './mongo-keys.js';
import type { FactDoc, HistoryDoc, SourceDoc } from './mongo-memory-docs.js';

export const factKey = (guildId: string, id: string): string => docKey(guildId, id);

const str = (v: string, what: string) => requireString(v, what);
const nullableStr = (v: string | null, what: string) => (v === null ? null : requireString(v, what));

export function sourceDoc(s: SourceRef): SourceDoc {
  return {
    messageId: str(s.messageId, 'source messageId'),
    channelId: str(s.channelId, 'source channelId'),
    authorId: str(s.authorId, 'source authorId'),
    authorName: str(s.authorName, 'source authorName'),
    snippet: str(s.snippet, 'source snippet'),
    url: str(s.url, 'source url'),
    role: str(s.role, 'source role'),
    createdAt: nullableDate(s.createdAt, 'source createdAt'),
  };
}

/** A fact as stored: every field copied by name (never spread), plus keyword terms and `active`. */
export function toFactDoc(f: Fact, ep = ''): FactDoc {
  const guildId = requireId(f.guildId, 'guildId');
  const id = requireId(f.id, 'fact id');
  const terms = indexTerms(str(f.text, 'text'));
  return {
    _id: factKey(guildId, id),
    ep,
    id,
    guildId,
    subjectId: f.subjectId === null ? null : requireId(f.subjectId, 'subjectId'),
    text: f.text,
    normalizedText: str(f.normalizedText, 'normalizedText'),
    category: str(f.category, 'category'),
    confidence: finite(f.confidence, 'confidence'),
    tier: str(f.tier, 'tier'),
    scope: str(f.scope, 'scope'),
    attribution: {
      type: str(f.attribution.type, 'attribution type'),
      speakerId: nullableStr(f.attribution.speakerId, 'speakerId'),
      speakerName: nullableStr(f.attribution.speakerName, 'speakerName'),
      actorId: nullableStr(f.attribution.actorId, 'actorId'),
    },
    occurrences: finite(f.occurrences, 'occurrences'),
    strength: finite(f.strength, 'strength'),
    lastReinforcedAt: validDate(f.lastReinforcedAt, 'lastReinforcedAt'),
    createdAt: validDate(f.createdAt, 'createdAt'),
    updatedAt: validDate(f.updatedAt, 'updatedAt'),
    observedAt: validDate(f.observedAt, 'observedAt'),
    validFrom: validDate(f.validFrom, 'validFrom'),
    validUntil: nullableDate(f.validUntil, 'validUntil'),
    supersedesId: nullableStr(f.supersedesId, 'supersedesId'),
    supersededById: nullableStr(f.supersededById, 'supersededById'),
    sources: f.sources.map(sourceDoc),
    channels: f.channels.map((c) => ({
      channelId: str(c.channelId, 'channelId'),
      parentId: nullableStr(c.parentId, 'channel parentId'),
    })),
    relatedUserIds: f.relatedUserIds.map((u) => str(u, 'relatedUserIds')),
    entitySlugs: f.entitySlugs.map((e) => str(e, 'entitySlugs')),
    expiresAt: nullableDate(f.expiresAt, 'expiresAt'),
    version: finite(f.version, 'version'),
    terms,
    termCount: terms.length,
    sk: f.subjectId === null ? SERVER_SCOPE : f.subjectId,
    active: isActive(f),
  };
}

export function fromFactDoc(d: FactDoc): Fact {
  return {
    id: d.id,
    guildId: d.guildId,
    subjectId: d.subjectId ?? null,
    text: d.text,
    normalizedText: d.normalizedText,
    category: d.category as Fact['category'],
    confidence: d.confidence,
    tier: d.tier as Fact['tier'],
    scope: d.scope as Fact['scope'],
    attribution: {
      type: d.attribution.type as Fact['attribution']['type'],
      speakerId: d.attribution.speakerId ?? null,
      speakerName: d.attribution.speakerName ?? null,
      actorId: d.attribution.actorId ?? null,
    },
    occurrences: d.occurrences,
    strength: d.strength,
    lastReinforcedAt: d.lastReinforcedAt,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
    observedAt: d.observedAt,
    validFrom: d.validFrom,
    validUntil: d.validUntil ?? null,
    supersedesId: d.supersedesId ?? null,
    supersededById: d.supersededById ?? null,
    sources: (d.sources ?? []).map((s) => ({
      messageId: s.messageId,
      channelId: s.channelId,
      authorId: s.authorId,
      authorName: s.authorName,
      snippet: s.snippet,
      url: s.url,
      role: s.role as SourceRef['role'],
      createdAt: s.createdAt ?? null,
    })),
    channels:
      d.channels?.map((c) => ({ channelId: c.channelId, parentId: c.parentId ?? null })) ??
      channelsOfSources(d.sources ?? []),
    relatedUserIds: [...(d.relatedUserIds ?? [])],
    entitySlugs: [...(d.entitySlugs ?? [])],
    expiresAt: d.expiresAt ?? null,
    version: d.version,
  };
}

/** Only the mutable fields of a patch are taken, by name; anything else in the object is ignored. */
export function applyPatch(current: Fact, patch: FactPatch): Fact {
  const p: Partial<Record<keyof FactPatch, unknown>> = {};
  const keys: readonly (keyof FactPatch)[] = [
    'text',
    'normalizedText',
    'category',
    'confidence',
    'tier',
    'occurrences',
    'strength',
    'lastReinforcedAt',
    'validUntil',
    'supersededById',
    'sources',
    'channels',
    'relatedUserIds',
    'entitySlugs',
    'expiresAt',
  ];
  for (const k of keys) if (Object.hasOwn(patch, k) && patch[k] !== undefined) p[k] = patch[k];
  return { ...current, ...(p as FactPatch) };
}

export function toHistoryDoc(e: FactHistoryEntry): HistoryDoc {
  return {
    _id: new ObjectId().toHexString(),
    guildId: requireId(e.guildId, 'guildId'),
    factId: requireId(e.factId, 'fact id'),
    at: validDate(e.at, 'at'),
    kind: str(e.kind, 'kind'),
    detail: str(e.detail, 'detail'),
    previousText: nullableStr(e.previousText, 'previousText'),
    actorId: nullableStr(e.actorId, 'actorId'),
    version: finite(e.version, 'version'),
  };
}

export function fromHistoryDoc(d: HistoryDoc): FactHistoryEntry {
  return {
    guildId: d.guildId,
    factId: d.factId,
    at: d.at,
    kind: d.kind as FactHistoryEntry['kind'],
    detail: d.detail,
    previousText: d.previousText ?? null,
    actorId: d.actorId ?? null,
    version: d.version,
  };
}
