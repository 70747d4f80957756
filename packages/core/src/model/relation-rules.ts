import { Polarity, RelationVerb } from './enums.js';
import type { Relation, RelationUpsert } from './graph.js';

/** Stored weight of a relation: ln(1 + occurrences) × confidence. */
export function relationBaseWeight(occurrences: number, confidence: number): number {
  return Math.round(Math.log1p(Math.max(0, occurrences)) * Math.max(0, Math.min(1, confidence)) * 1e6) / 1e6;
}

/** Weight at read time: the stored weight decayed by exp(−age_days / 90) since the last evidence. */
export function effectiveRelationWeight(
  storedWeight: number,
  updatedAt: Date,
  now: Date,
  halfLifeDays = 90,
): number {
  const ageDays = Math.max(0, (now.getTime() - updatedAt.getTime()) / 86_400_000);
  return storedWeight * Math.exp(-ageDays / halfLifeDays);
}

/** Relations keep at most this many evidence fact ids (the most recent). */
export const MAX_EVIDENCE = 8;

/** The relation an upsert creates when no active one matches (every store writes this shape). */
export function newRelation(input: RelationUpsert): Relation {
  return {
    guildId: input.guildId,
    srcType: input.src.type,
    srcId: input.src.id,
    dstType: input.dst.type,
    dstId: input.dst.id,
    verb: input.verb,
    polarity: input.polarity,
    weight: relationBaseWeight(1, input.confidence),
    occurrences: 1,
    confidence: input.confidence,
    evidenceFactIds: [input.evidenceFactId],
    validFrom: input.at,
    validUntil: null,
    updatedAt: input.at,
  };
}

/** What an upsert changes on a matching active relation: one more occurrence, the higher confidence, the evidence appended (deduplicated, last MAX_EVIDENCE kept) and the weight recomputed. */
export function reinforceRelation(
  current: Pick<Relation, 'occurrences' | 'confidence' | 'evidenceFactIds'>,
  input: Pick<RelationUpsert, 'confidence' | 'evidenceFactId' | 'at'>,
): Pick<Relation, 'occurrences' | 'confidence' | 'weight' | 'updatedAt'> & { evidenceFactIds: string[] } {
  const occurrences = current.occurrences + 1;
  const confidence = Math.max(current.confidence, input.confidence);
  return {
    occurrences,
    confidence,
    evidenceFactIds: [
      ...current.evidenceFactIds.filter((id) => id !== input.evidenceFactId),
      input.evidenceFactId,
    ].slice(-MAX_EVIDENCE),
    weight: relationBaseWeight(occurrences, confidence),
    updatedAt: input.at,
  };
}

const POSITIVE = new Set<string>([
  RelationVerb.LIKES,
  RelationVerb.LOVES,
  RelationVerb.ENJOYS,
  RelationVerb.PREFERS,
  RelationVerb.FAN_OF,
  RelationVerb.FRIENDS_WITH,
  RelationVerb.SUPPORTS,
  RelationVerb.ADMIRES,
  RelationVerb.COLLABORATES_WITH,
  RelationVerb.TEAMMATE_OF,
  'friend_of',
  'appreciates',
  'recommends',
]);
const NEGATIVE = new Set<string>([
  RelationVerb.DISLIKES,
  RelationVerb.HATES,
  RelationVerb.CALLED_OUT,
  RelationVerb.ARGUES_WITH,
  RelationVerb.DISTRUSTS,
  RelationVerb.AVOIDS,
  RelationVerb.QUIT,
  'feuds_with',
  'disapproves_of',
  'insulted',
  'blocked',
]);

/** Normalises a verb to snake_case (2–48 chars); returns null when nothing usable is left. */
export function normalizeVerb(verb: string): string | null {
  const v = verb
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 48);
  return v.length >= 2 ? v : null;
}

/** Polarity of a verb; unknown verbs are neutral. */
export function polarityOf(verb: string): Polarity {
  if (POSITIVE.has(verb)) return Polarity.POSITIVE;
  if (NEGATIVE.has(verb)) return Polarity.NEGATIVE;
  return Polarity.NEUTRAL;
}
