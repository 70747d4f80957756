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

/** Columns read for a fact, in the order `factFromValues` expects (row_id first). */
const FACT_READ = ['row_id', ...FACT_COLUMNS] as const;
const AT = Object.fromEntries(FACT_READ.map((c, i) => [c, i])) as Record<(typeof FACT_READ)[number], number>;

/** The select list of a fact read through `rawRows` (table alias `a`), paired with `factFromValues`. */
export const factSelectList = (a: string): string => FACT_READ.map((c) => `${a}.${c}`).join(', ');

/** A fact from a raw row selected with `factSelectList` (same decoding as `factFromRow`). */
export function factFromValues(v: readonly unknown[]): Fact {
  return factFromRow({
    row_id: v[AT.row_id] as number,
    guild_id: v[AT.guild_id] as string,
    id: v[AT.id] as string,
    subject_id: v[AT.subject_id] as string | null,
    speaker_id: v[AT.speaker_id] as string | null,
    text: v[AT.text] as string,
    normalized_text: v[AT.normalized_text] as string,
    category: v[AT.category] as Fact['category'],
    confidence: v[AT.confidence] as number,
    tier: v[AT.tier] as Fact['tier'],
    scope: v[AT.scope] as Fact['scope'],
    attribution: v[AT.attribution] as string,
    occurrences: v[AT.occurrences] as number,
    strength: v[AT.strength] as number,
    last_reinforced_at: v[AT.last_reinforced_at] as number,
    created_at: v[AT.created_at] as number,
    updated_at: v[AT.updated_at] as number,
    observed_at: v[AT.observed_at] as number,
    valid_from: v[AT.valid_from] as number,
    valid_until: v[AT.valid_until] as number | null,
    supersedes_id: v[AT.supersedes_id] as string | null,
    superseded_by_id: v[AT.superseded_by_id] as string | null,
    sources: v[AT.sources] as string,
    channels: v[AT.channels] as string,
    related_user_ids: v[AT.related_user_ids] as string,
    entity_slugs: v[AT.entity_slugs] as string,
    expires_at: v[AT.expires_at] as number | null,
    version: v[AT.version] as number,
  });
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
