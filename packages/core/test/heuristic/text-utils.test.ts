import { describe, expect, it } from 'vitest';
import { normalizeChat, splitSentences } from '../../src/adapters/heuristic/chat-normalize.js';
import { sequenceRatio } from '../../src/adapters/heuristic/index.js';
import {
  annotateRelativeDates,
  birthdayPhrase,
  resolveRelative,
} from '../../src/adapters/heuristic/relative-dates.js';

describe('relative dates (batch date Monday 2026-08-24)', () => {
  const iso = (phrase: string): string | undefined =>
    resolveRelative(phrase, '2026-08-24')?.toISOString().slice(0, 10);

  it.each([
    ['today', '2026-08-24'],
    ['tomorrow', '2026-08-25'],
    ['friday', '2026-08-28'],
    ['this friday', '2026-08-28'],
    ['next friday', '2026-09-04'],
    ['monday', '2026-08-24'],
    ['next monday', '2026-08-31'],
    ['sunday', '2026-08-30'],
  ])('%s → %s', (phrase, expected) => {
    expect(iso(phrase)).toBe(expected);
  });

  it('keeps the relative word and adds the date', () => {
    expect(annotateRelativeDates('tomorrow at 9', '2026-08-24')).toBe('tomorrow (2026-08-25) at 9');
    expect(annotateRelativeDates('next week', '2026-08-24')).toBe('next week');
  });

  it.each([
    ['march 3rd', 'on March 3'],
    ['the 14th of feb', 'on February 14'],
    ['in december', 'in December'],
    ['tomorrow', 'on August 25'],
    ['12/25', 'on 12/25'],
    ['coming up soon', null],
  ])('birthday %s → %s', (raw, expected) => {
    expect(birthdayPhrase(raw, '2026-08-24')).toBe(expected);
  });

  it('returns null for a malformed batch date', () => {
    expect(resolveRelative('tomorrow', 'soon')).toBeNull();
  });
});

describe('chat normalisation', () => {
  it.each([
    ['im from texas', 'i am from texas'],
    ['i dont like it', 'i do not like it'],
    ['ive been there', 'i have been there'],
    ['i can’t stand it', 'i cannot stand it'],
    ['my fav game 🎮 <:pepe:123456789012345678>', 'my favorite game'],
    ['ur a legend', 'you are a legend'],
    ['see https://x.y/z ok', 'see ok'],
  ])('%s → %s', (raw, expected) => {
    expect(normalizeChat(raw).text).toBe(expected);
  });

  it('marks questions and keeps decimals whole', () => {
    expect(splitSentences('i am 3.5 ft tall. are you?')).toEqual([
      { text: 'i am 3.5 ft tall', question: false },
      { text: 'are you', question: true },
    ]);
  });
});

describe('sequenceRatio (Ratcliff–Obershelp)', () => {
  it.each([
    ['abcd', 'abcd', 1],
    ['abcd', 'wxyz', 0],
    ['', '', 1],
    ['abcd', 'bcde', 0.75],
  ])('%s vs %s = %d', (a, b, expected) => {
    expect(sequenceRatio(a, b)).toBeCloseTo(expected, 5);
  });

  it('matches difflib on a sentence pair', () => {
    // difflib.SequenceMatcher(None, 'alice loves rust', 'i love rust').ratio() == 0.8148148…
    expect(sequenceRatio('alice loves rust', 'i love rust')).toBeCloseTo(22 / 27, 5);
  });
});
