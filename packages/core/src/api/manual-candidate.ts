import type { z } from 'zod';
import type { Candidate, CandidateRelation } from '../ingest/candidate.js';
import { normalizeText } from '../text/analyze.js';
import type { rememberSchema } from './facts-inputs.js';

/**
 * The candidate a `facts.remember` call stands for: the subject's relations to members and
 * entities, the channel it was said in (if any), no source messages, origin `manual`.
 */
export function manualCandidate(v: z.output<typeof rememberSchema>, text: string): Candidate {
  const relations: CandidateRelation[] = v.relations
    .map((r): CandidateRelation | null => {
      const to = r.toUserId
        ? { kind: 'user' as const, userId: r.toUserId }
        : r.toEntity
          ? { kind: 'entity' as const, name: r.toEntity }
          : null;
      const from = v.subjectId ? { kind: 'user' as const, userId: v.subjectId } : null;
      return to && from ? { verb: r.verb, from, to } : null;
    })
    .filter((r): r is CandidateRelation => r !== null);
  return {
    subjectId: v.subjectId,
    speakerId: v.speakerId !== v.subjectId ? v.speakerId : null,
    speakerName: null,
    text,
    normalizedText: normalizeText(text),
    category: v.category,
    confidence: v.confidence,
    sources: [],
    channels: v.channel ? [v.channel] : [],
    relatedUserIds: v.relations
      .map((r) => r.toUserId)
      .filter((u): u is string => u !== undefined && u !== v.subjectId),
    entities: v.entities,
    relations,
    origin: 'manual',
    actorId: v.actorId,
  };
}
