import type { Attribution, Fact, FactHistoryEntry, SourceChannel, SourceRef } from '@permafrost/core';
import { date, dateOrNull, ms, msOrNull } from './codec.js';

export interface FactRow {
  readonly row_id: number;
  readonly guild_id: string;
  readonly id: string;
  readonly subject_id: string | null;
  readonly speaker_id: string | null;
  readonly text: string;
  readonly normalized_text: string;
  readonly category: Fact['category'];
  readonly confidence: number;
  readonly tier: Fact['tier'];
  readonly scope: Fact['scope'];
  readonly attribution: string;
  readonly occurrences: number;
  readonly strength: number;
  readonly last_reinforced_at: number;
  readonly created_at: number;
  readonly updated_at: number;
  readonly observed_at: number;
  readonly valid_from: number;
  readonly valid_until: number | null;
  readonly supersedes_id: string | null;
  readonly superseded_by_id: string | null;
  readonly sources: string;
  readonly channels: string;
  readonly related_user_ids: string;
  readonly entity_slugs: string;
  readonly expires_at: number | null;
  readonly version: number;
}

/** Every column but row_id, in insert order. */
export const FACT_COLUMNS = [
  'guild_id',
  'id',
  'subject_id',
  'speaker_id',
  'text',
  'normalized_text',
  'category',
  'confidence',
  'tier',
  'scope',
  'attribution',
  'occurrences',
  'strength',
  'last_reinforced_at',
  'created_at',
  'updated_at',
  'observed_at',
  'valid_from',
  'valid_until',
  'supersedes_id',
  'superseded_by_id',
  'sources',
  'channels',
  'related_user_ids',
  'entity_slugs',
  'expires_at',
  'version',
] as const;

type StoredSource = Omit<SourceRef, 'createdAt'> & { readonly createdAt: number | null };

export function encodeSources(sources: readonly SourceRef[]): string {
  return JSON.stringify(sources.map((s): StoredSource => ({ ...s, createdAt: msOrNull(s.createdAt) })));
}

function decodeSources(text: string): SourceRef[] {
  return (JSON.parse(text) as StoredSource[]).map((s) => ({ ...s, createdAt: dateOrNull(s.createdAt) }));
}

/** Named parameters for FACT_COLUMNS. */
export function factParams(f: Fact): Record<(typeof FACT_COLUMNS)[number], string | number | null> {
  return {
    guild_id: f.guildId,
    id: f.id,
    subject_id: f.subjectId,
    speaker_id: f.attribution.speakerId,
    text: f.text,
    normalized_text: f.normalizedText,
    category: f.category,
    confidence: f.confidence,
    tier: f.tier,
    scope: f.scope,
    attribution: JSON.stringify(f.attribution),
    occurrences: f.occurrences,
    strength: f.strength,
    last_reinforced_at: ms(f.lastReinforcedAt),
    created_at: ms(f.createdAt),
    updated_at: ms(f.updatedAt),
    observed_at: ms(f.observedAt),
    valid_from: ms(f.validFrom),
    valid_until: msOrNull(f.validUntil),
    supersedes_id: f.supersedesId,
    superseded_by_id: f.supersededById,
    sources: encodeSources(f.sources),
    channels: JSON.stringify(f.channels),
    related_user_ids: JSON.stringify(f.relatedUserIds),
    entity_slugs: JSON.stringify(f.entitySlugs),
    expires_at: msOrNull(f.expiresAt),
    version: f.version,
  };
}

export function factFromRow(r: FactRow): Fact {
  return {
    id: r.id,
    guildId: r.guild_id,
    subjectId: r.subject_id,
    text: r.text,
    normalizedText: r.normalized_text,
    category: r.category,
    confidence: r.confidence,
    tier: r.tier,
    scope: r.scope,
    attribution: JSON.parse(r.attribution) as Attribution,
    occurrences: r.occurrences,
    strength: r.strength,
    lastReinforcedAt: date(r.last_reinforced_at),
    createdAt: date(r.created_at),
    updatedAt: date(r.updated_at),
    observedAt: date(r.observed_at),
    validFrom: date(r.valid_from),
    validUntil: dateOrNull(r.valid_until),
    supersedesId: r.supersedes_id,
    supersededById: r.superseded_by_id,
    sources: decodeSources(r.sources),
    channels: JSON.parse(r.channels) as SourceChannel[],
    relatedUserIds: JSON.parse(r.related_user_ids) as string[],
    entitySlugs: JSON.parse(r.entity_slugs) as string[],
    expiresAt: dateOrNull(r.expires_at),
    version: r.version,
  };
}

/**
 * Columns read for a fact, in the order `factFromValues` expects (row_id first). `speaker_id` is
 * left out: it is a lookup copy of `attribution.speakerId`, which the fact is decoded from.
 */
const FACT_READ = ['row_id', ...FACT_COLUMNS.filter((c) => c !== 'speaker_id')] as const;
const AT = Object.fromEntries(FACT_READ.map((c, i) => [c, i])) as Record<
  Exclude<(typeof FACT_READ)[number], 'speaker_id'>,
  number
>;

/** The select list of a fact read through `rawRows` (table alias `a`), paired with `factFromValues`. */
export const factSelectList = (a: string): string => FACT_READ.map((c) => `${a}.${c}`).join(', ');

/**
 * A fact from a raw row selected with `factSelectList` (same decoding as `factFromRow`), built
 * straight from the values: ranked reads decode a hundred or more facts per request.
 */
export function factFromValues(v: readonly unknown[]): Fact {
  return {
    id: v[AT.id] as string,
    guildId: v[AT.guild_id] as string,
    subjectId: v[AT.subject_id] as string | null,
    text: v[AT.text] as string,
    normalizedText: v[AT.normalized_text] as string,
    category: v[AT.category] as Fact['category'],
    confidence: v[AT.confidence] as number,
    tier: v[AT.tier] as Fact['tier'],
    scope: v[AT.scope] as Fact['scope'],
    attribution: JSON.parse(v[AT.attribution] as string) as Attribution,
    occurrences: v[AT.occurrences] as number,
    strength: v[AT.strength] as number,
    lastReinforcedAt: date(v[AT.last_reinforced_at] as number),
    createdAt: date(v[AT.created_at] as number),
    updatedAt: date(v[AT.updated_at] as number),
    observedAt: date(v[AT.observed_at] as number),
    validFrom: date(v[AT.valid_from] as number),
    validUntil: dateOrNull(v[AT.valid_until] as number | null),
    supersedesId: v[AT.supersedes_id] as string | null,
    supersededById: v[AT.superseded_by_id] as string | null,
    sources: decodeSources(v[AT.sources] as string),
    channels: JSON.parse(v[AT.channels] as string) as SourceChannel[],
    relatedUserIds: JSON.parse(v[AT.related_user_ids] as string) as string[],
    entitySlugs: JSON.parse(v[AT.entity_slugs] as string) as string[],
    expiresAt: dateOrNull(v[AT.expires_at] as number | null),
    version: v[AT.version] as number,
  };
}

export interface HistoryRow {
  readonly guild_id: string;
  readonly fact_id: string;
  readonly at: number;
  readonly kind: FactHistoryEntry['kind'];
  readonly detail: string;
  readonly previous_text: string | null;
  readonly actor_id: string | null;
  readonly version: number;
}

export function historyParams(e: FactHistoryEntry): HistoryRow {
  return {
    guild_id: e.guildId,
    fact_id: e.factId,
    at: ms(e.at),
    kind: e.kind,
    detail: e.detail,
    previous_text: e.previousText,
    actor_id: e.actorId,
    version: e.version,
  };
}

export function historyFromRow(r: HistoryRow): FactHistoryEntry {
  return {
    guildId: r.guild_id,
    factId: r.fact_id,
    at: date(r.at),
    kind: r.kind,
    detail: r.detail,
    previousText: r.previous_text,
    actorId: r.actor_id,
    version: r.version,
  };
}
