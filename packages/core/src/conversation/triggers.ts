/**
 * Heuristics that decide when a normal-mode reply needs long-term memory. They look for the user
 * pointing at the past, at stored preferences or identity, or at another person.
 */
const TRIGGERS: readonly (readonly [name: string, pattern: RegExp])[] = [
  ['remember_when', /\b(remember|recall) (when|that|the time|what)\b|\bdo you remember\b/i],
  ['you_said', /\b(you|u) (said|told me|mentioned|promised)\b/i],
  [
    'past_reference',
    /\b(last|previous) (time|week|month|year|night|weekend)\b|\b(yesterday|the other day|a while ago|earlier today|back when)\b/i,
  ],
  [
    'my_preference',
    /\b(what'?s|what is|whats) my (fav(ou?rite)?|favorite|name|job|birthday)\b|\bmy fav(ou?rite)?\b/i,
  ],
  [
    'preference_question',
    /\b(do|did) i (like|love|hate|prefer|enjoy|play|own|have)\b|\bwhat (kind|sort|type) of .* (do|did) i\b|\bwhich .* (do|did) i\b/i,
  ],
  [
    'about_me',
    /\b(what|anything) (do )?you know about (me|him|her|them|us)\b|\bwho am i\b|\btell me about (me|myself)\b/i,
  ],
  [
    'about_someone',
    /\b(who is|who's|whos|tell me about|what do you know about|what does .* (like|do|think))\b/i,
  ],
  ['again', /\b(again|as usual|like always|same as before)\b/i],
];

/** The first trigger that fires (or null); a mentioned member always triggers. */
export function longTermTrigger(text: string, mentionedIds: readonly string[] = []): string | null {
  if (mentionedIds.length > 0) return 'mentioned_user';
  for (const [name, pattern] of TRIGGERS) if (pattern.test(text)) return name;
  return null;
}
