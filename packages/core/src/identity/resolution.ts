import { AliasSource } from '../model/enums.js';
import type { Alias } from '../model/graph.js';
import { aliasRank } from './aliases.js';

/** A member a name may refer to. */
export interface ResolvedCandidate {
  readonly userId: string;
  readonly matchedAlias: string;
  readonly source: AliasSource;
  readonly weight: number;
  /** 0.6 × source rank / 100 + 0.4 × weight relative to the best candidate, in [0, 1]. */
  readonly confidence: number;
}

/** How a resolution was reached: an id, an exact alias, a prefix of an alias, or not at all. */
export type ResolutionBasis = 'id' | 'exact' | 'prefix' | 'unresolved';

/** The outcome of resolving one identifier. Ambiguous names resolve to null, never to a guess. */
export interface Resolution {
  readonly identifier: string;
  readonly resolved: string | null;
  readonly candidates: readonly ResolvedCandidate[];
  readonly ambiguous: boolean;
  readonly basis: ResolutionBasis;
}

/** A rival within this share of the best weight makes a name ambiguous. */
export const AMBIGUITY_RATIO = 0.85;
/** Prefix matching needs at least this many characters. */
export const MIN_PREFIX_CHARS = 3;
const MAX_CANDIDATES = 5;

/** Strongest first: source rank, then weight, then user id (stable). */
export function compareAliases(a: Alias, b: Alias): number {
  return (
    aliasRank(b.source) - aliasRank(a.source) ||
    b.weight - a.weight ||
    (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0)
  );
}

/** Names the platform gave a member (their own account), as opposed to names stated in chat. */
const PLATFORM_NAMES: ReadonlySet<AliasSource> = new Set<AliasSource>([
  AliasSource.DISCORD_USERNAME,
  AliasSource.SUBJECT_USERNAME,
  AliasSource.DISPLAY_NAME,
]);

/**
 * A self-claimed name ("my name is Alice") never takes a name another member holds by username or
 * display name: when one member claims a name another holds on the platform, it is ambiguous.
 */
function claimCollides(matches: readonly Alias[]): boolean {
  const claims = matches.filter((a) => a.source === AliasSource.REAL_NAME);
  return matches.some(
    (a) => PLATFORM_NAMES.has(a.source) && claims.some((c) => c.alias === a.alias && c.userId !== a.userId),
  );
}

/**
 * Picks the member behind a set of alias matches. A rival member whose alias weighs at least
 * 85 % of the best one makes the name ambiguous when the match is a prefix, or when the rival's
 * source has the same rank (for exact matches a higher-ranked source wins outright). A name one
 * member claims in chat while another holds it on the platform is ambiguous as well.
 */
export function decideAliases(
  identifier: string,
  matches: readonly Alias[],
  basis: 'exact' | 'prefix',
): Resolution {
  const ranked = [...matches].sort(compareAliases);
  const best = ranked[0];
  if (!best) return { identifier, resolved: null, candidates: [], ambiguous: false, basis: 'unresolved' };
  const ambiguous =
    ranked.some(
      (a) =>
        a.userId !== best.userId &&
        a.weight >= AMBIGUITY_RATIO * best.weight &&
        (basis === 'prefix' || aliasRank(a.source) === aliasRank(best.source)),
    ) || claimCollides(ranked);
  const perUser = new Map<string, Alias>();
  for (const a of ranked) if (!perUser.has(a.userId)) perUser.set(a.userId, a);
  const top = [...perUser.values()].slice(0, MAX_CANDIDATES);
  const topWeight = Math.max(...top.map((a) => a.weight), 1e-9);
  const candidates = top.map((a) => ({
    userId: a.userId,
    matchedAlias: a.alias,
    source: a.source,
    weight: a.weight,
    confidence:
      Math.round(
        (0.6 * Math.min(1, aliasRank(a.source) / 100) + 0.4 * Math.min(1, a.weight / topWeight)) * 1e4,
      ) / 1e4,
  }));
  return { identifier, resolved: ambiguous ? null : best.userId, candidates, ambiguous, basis };
}
