import { AliasSource, aliasSourceRank } from '../model/enums.js';
import { normalizeName } from '../text/untrusted.js';

/**
 * Lowercase, NFKC, no zero-width / bidi / control / format characters, whitespace-collapsed;
 * leading @ removed. "Bob", "ｂｏｂ" and "Bob" + U+200B are one name (so they collide, and a
 * lookalike is never a different, unflagged name).
 */
export function normalizeAlias(name: string): string {
  return normalizeName(name).toLowerCase().replace(/^@+/, '').trim();
}

const SNOWFLAKE = /^\d{15,25}$/;
const DIGITS_ONLY = /^\d{9,}$/;
const MENTION_TAG = /<@[!&]?\d+>/;

/** Platform ids look like 15–25 digits. */
export function looksLikeSnowflake(value: string): boolean {
  return SNOWFLAKE.test(value.trim());
}

/**
 * A usable alias: 2–64 characters after normalisation, not an id (9+ digits), no mention tag.
 * Rejecting digit strings stops "snowflake poisoning" (binding someone's id as another's name).
 */
export function isValidAlias(normalized: string): boolean {
  return (
    normalized.length >= 2 &&
    normalized.length <= 64 &&
    !DIGITS_ONLY.test(normalized) &&
    !MENTION_TAG.test(normalized)
  );
}

const USERNAME = /^[a-z0-9._-]{2,32}$/;

/** Weight of an alias from its source; platform usernames of the canonical shape weigh at least 0.95. */
export function aliasWeight(source: AliasSource, normalized: string): number {
  const base = aliasSourceRank[source].weight;
  return source === AliasSource.DISCORD_USERNAME && USERNAME.test(normalized) ? Math.max(base, 0.95) : base;
}

export function aliasRank(source: AliasSource): number {
  return aliasSourceRank[source].rank;
}
