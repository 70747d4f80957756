import { normalizeAlias } from '../identity/aliases.js';
import type { StoredMessage } from '../model/message.js';
import type { Roster } from './roster.js';

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

/** Members of the batch whose shown name is another member's too (after normalisation). */
export function sharedNames(roster: Roster): ReadonlySet<string> {
  const byName = new Map<string, string[]>();
  for (const e of roster.entries()) {
    const userId = roster.userOf(e.token);
    if (typeof userId !== 'string') continue;
    const key = normalizeAlias(e.name);
    byName.set(key, [...(byName.get(key) ?? []), userId]);
  }
  return new Set([...byName.values()].filter((users) => users.length > 1).flat());
}

/**
 * A subject whose name is shared by another member is only known when a cited message is theirs,
 * mentions them or replies to them; a bare name ("Bob lives in Berlin") is ambiguous evidence and
 * is not attached to either member.
 */
export function subjectIsIdentified(
  subjectId: string,
  cited: readonly StoredMessage[],
  batch: Iterable<StoredMessage>,
): boolean {
  const byId = new Map<string, StoredMessage>();
  for (const m of batch) byId.set(m.messageId, m);
  return cited.some(
    (m) =>
      m.authorId === subjectId ||
      m.mentionIds.includes(subjectId) ||
      (m.replyToMessageId !== null && byId.get(m.replyToMessageId)?.authorId === subjectId),
  );
}
