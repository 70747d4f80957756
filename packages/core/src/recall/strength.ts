import type { Fact } from '../model/fact.js';

const DAY_MS = 86_400_000;
const LN_11 = Math.log(11);

/**
 * Share of a memory still retained: exp(−Δdays / (max(strength, 1) × stabilityDays)), where Δ is
 * the time since the fact was last reinforced. Stronger facts fade more slowly.
 */
export function retention(
  fact: Pick<Fact, 'strength' | 'lastReinforcedAt'>,
  now: Date,
  stabilityDays: number,
): number {
  const days = Math.max(0, (now.getTime() - fact.lastReinforcedAt.getTime()) / DAY_MS);
  const stability = Math.max(1, fact.strength) * Math.max(1e-9, stabilityDays);
  return Math.exp(-days / stability);
}

/** The strength prior of fusion: min(1, ln(1 + strength) / ln 11) × retention, in [0, 1]. */
export function strengthSignal(
  fact: Pick<Fact, 'strength' | 'lastReinforcedAt'>,
  now: Date,
  stabilityDays: number,
): number {
  const level = Math.min(1, Math.log1p(Math.max(0, fact.strength)) / LN_11);
  return level * retention(fact, now, stabilityDays);
}
