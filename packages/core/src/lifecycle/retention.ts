import { AttributionType, MemoryTier, tierRank } from '../model/enums.js';
import type { Fact } from '../model/fact.js';

const DAY = 86_400_000;

/** Memory retention of a fact: exp(−Δdays / (max(strength, 1) × stabilityDays)) since last reinforced. */
export function retention(
  fact: Pick<Fact, 'strength' | 'lastReinforcedAt'>,
  now: Date,
  stabilityDays: number,
): number {
  const days = Math.max(0, (now.getTime() - fact.lastReinforcedAt.getTime()) / DAY);
  return Math.exp(-days / (Math.max(fact.strength, 1) * stabilityDays));
}

/** Strength prior used by recall: min(1, ln(1+s)/ln 11) × retention. */
export function strengthSignal(
  fact: Pick<Fact, 'strength' | 'lastReinforcedAt'>,
  now: Date,
  stabilityDays: number,
): number {
  return Math.min(1, Math.log1p(fact.strength) / Math.log(11)) * retention(fact, now, stabilityDays);
}

function protectedFromDecay(fact: Fact): boolean {
  return fact.tier === MemoryTier.CORE || fact.attribution.type === AttributionType.MANUAL;
}

/** Facts whose retention fell below the floor (never core or manual facts). */
export function selectForgotten(
  facts: readonly Fact[],
  now: Date,
  stabilityDays: number,
  floor: number,
): Fact[] {
  return facts.filter((f) => !protectedFromDecay(f) && retention(f, now, stabilityDays) < floor);
}

/** Facts past their TTL. */
export function selectExpired(facts: readonly Fact[], now: Date): Fact[] {
  return facts.filter((f) => f.expiresAt !== null && f.expiresAt.getTime() <= now.getTime());
}

/**
 * Facts to prune so each subject keeps at most `maxPerUser` active facts and the server at most
 * `maxServer`: weakest first (tier, then strength, then confidence, then oldest), with manual and
 * core facts pruned last.
 */
export function selectOverCap(facts: readonly Fact[], maxPerUser: number, maxServer: number): Fact[] {
  const bySubject = new Map<string, Fact[]>();
  for (const f of facts) {
    const k = f.subjectId ?? '\u0000server';
    const list = bySubject.get(k) ?? [];
    list.push(f);
    bySubject.set(k, list);
  }
  const victims: Fact[] = [];
  for (const [k, list] of bySubject) {
    const cap = k === '\u0000server' ? maxServer : maxPerUser;
    if (list.length <= cap) continue;
    const ordered = [...list].sort(
      (a, b) =>
        Number(protectedFromDecay(a)) - Number(protectedFromDecay(b)) ||
        tierRank[a.tier] - tierRank[b.tier] ||
        a.strength - b.strength ||
        a.confidence - b.confidence ||
        a.lastReinforcedAt.getTime() - b.lastReinforcedAt.getTime(),
    );
    victims.push(...ordered.slice(0, list.length - cap));
  }
  return victims;
}
