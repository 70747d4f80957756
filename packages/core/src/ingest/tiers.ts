import type { MemoryConfig } from '../config/schema.js';
import { AttributionType, FactCategory, MemoryTier } from '../model/enums.js';

const TODAY = /\b(today|tonight|this (morning|afternoon|evening))\b/i;
const SOON =
  /\b(tomorrow|this week(end)?|next week|in a few days|on (monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b/i;
const LONG_CATEGORIES = new Set<string>([
  FactCategory.PERSONAL,
  FactCategory.RELATIONSHIPS,
  FactCategory.PROFESSIONAL,
  FactCategory.EXPERIENCES,
]);
const CORE_CATEGORIES = new Set<string>([
  FactCategory.PERSONAL,
  FactCategory.RELATIONSHIPS,
  FactCategory.PROFESSIONAL,
]);
const SERVER_CORE = new Set<string>([FactCategory.RULES, FactCategory.CULTURE]);

export interface TierInput {
  readonly text: string;
  readonly category: FactCategory;
  readonly confidence: number;
  readonly occurrences: number;
  readonly attribution: AttributionType;
  readonly serverFact: boolean;
}

export interface TierAssignment {
  readonly tier: MemoryTier;
  /** Time to live in days; null = no expiry. */
  readonly ttlDays: number | null;
}

/**
 * Memory tier and time to live: manual facts are core; time-bound wording is short-lived
 * ("tonight" 3 days, "tomorrow/this week" the short-term TTL); well-corroborated confident
 * personal facts are promoted to core; biographical categories are long-term; the rest mid-term.
 */
export function assignTier(input: TierInput, lifecycle: MemoryConfig['lifecycle']): TierAssignment {
  if (input.attribution === AttributionType.MANUAL) return { tier: MemoryTier.CORE, ttlDays: null };
  if (input.serverFact && SERVER_CORE.has(input.category)) {
    return input.confidence >= 0.85
      ? { tier: MemoryTier.CORE, ttlDays: null }
      : { tier: MemoryTier.LONG, ttlDays: lifecycle.longTermDays };
  }
  if (TODAY.test(input.text))
    return { tier: MemoryTier.SHORT, ttlDays: Math.min(3, lifecycle.shortTermDays) };
  if (SOON.test(input.text)) return { tier: MemoryTier.SHORT, ttlDays: lifecycle.shortTermDays };
  if (input.confidence >= 0.95 && input.occurrences >= 3 && CORE_CATEGORIES.has(input.category)) {
    return { tier: MemoryTier.CORE, ttlDays: null };
  }
  if (LONG_CATEGORIES.has(input.category)) return { tier: MemoryTier.LONG, ttlDays: lifecycle.longTermDays };
  return { tier: MemoryTier.MID, ttlDays: lifecycle.midTermDays };
}

export function expiryFrom(now: Date, ttlDays: number | null): Date | null {
  return ttlDays === null ? null : new Date(now.getTime() + ttlDays * 86_400_000);
}
