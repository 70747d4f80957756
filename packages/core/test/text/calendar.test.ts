import { describe, expect, it } from 'vitest';
import { monthIndex } from '../../src/text/calendar.js';

describe('monthIndex', () => {
  it('reads full names, abbreviations, "sept" and a trailing dot, in any case', () => {
    expect(['January', 'jan', 'Jan.', 'sept', 'Sep', 'september', 'DEC'].map(monthIndex)).toEqual([
      0, 0, 0, 8, 8, 8, 11,
    ]);
  });

  it('returns -1 for other words', () => {
    expect(['', 'ja', 'janu', 'mayday', 'friday'].map(monthIndex)).toEqual([-1, -1, -1, -1, -1]);
  });
});
