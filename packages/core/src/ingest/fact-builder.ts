import type { MemoryConfig } from '../config/schema.js';
import { mergeChannels } from '../model/audience.js';
import { AttributionType, type FactHistoryKind, FactScope, MemoryTier } from '../model/enums.js';
import type { Fact, FactHistoryEntry, FactPatch, SourceRef } from '../model/fact.js';
import type { IdGen } from '../ports/clock.js';
import { normalizeText } from '../text/analyze.js';
import type { Candidate } from './candidate.js';
import { assignTier, expiryFrom } from './tiers.js';

const MAX_SOURCES = 8;

/** A new fact from a candidate (optionally with a merged text). */
export function buildFact(
  candidate: Candidate,
  guildId: string,
  ids: IdGen,
  at: Date,
  lifecycle: MemoryConfig['lifecycle'],
  text?: string,
): Fact {
  const body = text ?? candidate.text;
  const manual = candidate.origin === 'manual';
  const attribution = manual
    ? AttributionType.MANUAL
    : candidate.speakerId && candidate.speakerId !== candidate.subjectId
      ? AttributionType.THIRD_PARTY
      : AttributionType.SELF;
  const { tier, ttlDays } = assignTier(
    {
      text: body,
      category: candidate.category,
      confidence: candidate.confidence,
      occurrences: 1,
      attribution,
      serverFact: candidate.subjectId === null,
    },
    lifecycle,
  );
  return {
    id: ids.next('fct'),
    guildId,
    subjectId: candidate.subjectId,
    text: body,
    normalizedText: text === undefined ? candidate.normalizedText : normalizeText(body),
    category: candidate.category,
    confidence: candidate.confidence,
    tier,
    scope: candidate.subjectId === null ? FactScope.SERVER : FactScope.USER,
    attribution: {
      type: attribution,
      speakerId: candidate.speakerId,
      speakerName: candidate.speakerName,
      actorId: candidate.actorId,
    },
    occurrences: 1,
    strength: 1,
    lastReinforcedAt: at,
    createdAt: at,
    updatedAt: at,
    observedAt: candidate.sources[0]?.createdAt ?? at,
    validFrom: at,
    validUntil: null,
    supersedesId: null,
    supersededById: null,
    sources: candidate.sources.slice(0, MAX_SOURCES),
    channels: mergeChannels(candidate.channels),
    relatedUserIds: [...candidate.relatedUserIds],
    entitySlugs: [],
    expiresAt: expiryFrom(at, ttlDays),
    version: 1,
  };
}

/** Patch of a reinforcement: one more occurrence, stronger, re-tiered, TTL restarted, sources merged. */
export function reinforcementPatch(
  target: Fact,
  candidate: Candidate,
  at: Date,
  lifecycle: MemoryConfig['lifecycle'],
): FactPatch {
  const occurrences = target.occurrences + 1;
  const confidence = Math.max(target.confidence, candidate.confidence);
  const { tier, ttlDays } = assignTier(
    {
      text: target.text,
      category: target.category,
      confidence,
      occurrences,
      attribution: target.attribution.type,
      serverFact: target.subjectId === null,
    },
    lifecycle,
  );
  const keepTier = target.tier === MemoryTier.CORE ? MemoryTier.CORE : tier;
  const known = new Set(target.sources.map((s) => s.messageId));
  const sources: SourceRef[] = [
    ...target.sources,
    ...candidate.sources
      .filter((s) => !known.has(s.messageId))
      .map((s) => ({ ...s, role: 'supporting' as const })),
  ].slice(-MAX_SOURCES);
  return {
    channels: mergeChannels(target.channels, candidate.channels),
    occurrences,
    strength: target.strength + 1,
    confidence,
    tier: keepTier,
    lastReinforcedAt: at,
    expiresAt: keepTier === MemoryTier.CORE ? null : expiryFrom(at, ttlDays),
    sources,
  };
}

export function historyEntry(
  fact: Fact,
  kind: FactHistoryKind,
  at: Date,
  detail: string,
  extra: Partial<FactHistoryEntry> = {},
): FactHistoryEntry {
  return {
    guildId: fact.guildId,
    factId: fact.id,
    at,
    kind,
    detail,
    previousText: null,
    actorId: null,
    version: fact.version,
    ...extra,
  };
}
