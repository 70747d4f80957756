import type { Fact } from '../model/fact.js';
import { normalizeText } from '../text/analyze.js';

const EPOCH = new Date('2026-08-24T12:00:00.000Z');
let sequence = 0;

/**
 * A complete, valid fact for tests and fixtures. Defaults: a mid-tier self-stated fact about `u1`
 * in guild `g`, created at 2026-08-24T12:00Z with every timestamp equal to `createdAt`, and a
 * sortable id (`fct_00000001`, …). Any field can be overridden; `normalizedText` follows `text`
 * and `scope` follows `subjectId` unless given.
 */
export function makeFact(overrides: Partial<Fact> = {}): Fact {
  const text = overrides.text ?? 'alice likes movies';
  const created = overrides.createdAt ?? EPOCH;
  const subjectId = overrides.subjectId === undefined ? 'u1' : overrides.subjectId;
  return {
    id: `fct_${String(++sequence).padStart(8, '0')}`,
    guildId: 'g',
    subjectId,
    text,
    normalizedText: normalizeText(text),
    category: 'general',
    confidence: 0.9,
    tier: 'mid',
    scope: subjectId === null ? 'server' : 'user',
    attribution: { type: 'self', speakerId: null, speakerName: null, actorId: null },
    occurrences: 1,
    strength: 1,
    lastReinforcedAt: created,
    createdAt: created,
    updatedAt: created,
    observedAt: created,
    validFrom: created,
    validUntil: null,
    supersedesId: null,
    supersededById: null,
    sources: [],
    channels: [],
    relatedUserIds: [],
    entitySlugs: [],
    expiresAt: null,
    version: 1,
    ...overrides,
  };
}
