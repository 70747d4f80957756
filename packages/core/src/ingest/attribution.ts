import type { StoredMessage } from '../model/message.js';

/** Who stated a proposed fact, decided from the authors of its source messages, never from the model. */
export type AttributionDecision =
  | { readonly ok: true; readonly speakerId: string | null }
  | { readonly ok: false; readonly reason: 'unsupported_attribution' };

/**
 * The model proposes a subject and (optionally) a speaker; the pipeline knows who wrote every
 * cited message. A fact is the subject's own statement only when the subject wrote one of its
 * sources; a named speaker is kept only when they wrote one. Otherwise the fact is attributed to
 * the first source author who may speak (third party), or dropped when there is none.
 *
 * `mayVouch(userId)` is false for authors whose words must not be attributed (bots, opted-out or
 * unknown members).
 */
export function decideAttribution(
  subjectId: string | null,
  proposedSpeakerId: string | null,
  cited: readonly StoredMessage[],
  mayVouch: (userId: string) => boolean,
): AttributionDecision {
  const authors: string[] = [];
  for (const m of cited)
    if (!m.authorIsBot && mayVouch(m.authorId) && !authors.includes(m.authorId)) authors.push(m.authorId);
  const proposed = proposedSpeakerId === subjectId ? null : proposedSpeakerId;
  if (subjectId === null) {
    // Community facts: a speaker is only recorded when they wrote a source.
    const speakerId = proposed !== null && authors.includes(proposed) ? proposed : null;
    return { ok: true, speakerId };
  }
  if (proposed !== null && authors.includes(proposed)) return { ok: true, speakerId: proposed };
  if (authors.includes(subjectId)) return { ok: true, speakerId: null };
  const actual = authors[0];
  if (actual === undefined) return { ok: false, reason: 'unsupported_attribution' };
  return { ok: true, speakerId: actual };
}
