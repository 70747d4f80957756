import type { Fact } from '@permafrost/core';
import { makeFact } from '@permafrost/core/testing';
import { TOPICS as ALL_TOPICS } from './community.js';
import { prng } from './stats.js';

const SUBJECTS = [
  'likes',
  'hates',
  'plays',
  'collects',
  'studies',
  'cooks',
  'builds',
  'watches',
  'reads',
  'visits',
];
// The storage corpus draws from the first 30 topics of the community generator.
const TOPICS = ALL_TOPICS.slice(0, 30);
const PLACES = [
  'berlin',
  'osaka',
  'lisbon',
  'toronto',
  'nairobi',
  'lima',
  'seoul',
  'oslo',
  'austin',
  'perth',
];
const TAILS = [
  'on weekends',
  'with friends',
  'since childhood',
  'every summer',
  'after work',
  'at night',
  'when it rains',
  'with their sister',
  'in the park',
  'for a living',
];

/** Discord-shaped ids (17–19 digit snowflakes), as real bots store them. */
export const GUILD = '1098765432109876543';
export const USERS = 200;
export const userId = (n: number): string => String(284719530019274752n + BigInt(n) * 7_919_000_011n);

/** N facts in one guild about 200 members (every 25th a server fact), with ULID-like sortable ids. */
export function makeFacts(n: number, seed = 1): Fact[] {
  const rand = prng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)] as T;
  const base = Date.UTC(2026, 0, 1);
  const facts: Fact[] = [];
  for (let i = 0; i < n; i++) {
    const server = i % 25 === 0;
    const subjectId = server ? null : userId(Math.floor(rand() * USERS));
    const text = server
      ? `the server ${pick(SUBJECTS)} ${pick(TOPICS)} ${pick(TAILS)} in ${pick(PLACES)} (${i})`
      : `member ${pick(SUBJECTS)} ${pick(TOPICS)} and ${pick(TOPICS)} ${pick(TAILS)} in ${pick(PLACES)}`;
    const at = new Date(base + i * 60_000);
    facts.push(
      makeFact({
        id: `fct_${String(i).padStart(10, '0')}`,
        guildId: GUILD,
        subjectId,
        text,
        category: 'interests',
        confidence: 0.8 + rand() * 0.2,
        attribution: { type: 'self', speakerId: subjectId, speakerName: subjectId, actorId: null },
        occurrences: 1 + Math.floor(rand() * 3),
        strength: 1 + rand() * 4,
        createdAt: at,
      }),
    );
  }
  return facts;
}

/** Recall-style questions over the same vocabulary. */
export function makeQueries(n: number, seed = 2): { text: string; subjects: string[] }[] {
  const rand = prng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)] as T;
  return Array.from({ length: n }, () => ({
    text: `does anyone here ${pick(SUBJECTS)} ${pick(TOPICS)} ${pick(TAILS)}?`,
    subjects: [userId(Math.floor(rand() * USERS)), userId(Math.floor(rand() * USERS))],
  }));
}
