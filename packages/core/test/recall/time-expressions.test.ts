import { describe, expect, it } from 'vitest';
import { temporalMatch, timeWindows } from '../../src/recall/time-expressions.js';

const now = new Date('2023-10-20T12:00:00Z');
const iso = (d: Date) => d.toISOString().slice(0, 10);

describe('time expressions', () => {
  it('reads absolute days, months and years', () => {
    expect(
      timeWindows('What did Gina find on 1 February, 2023?', now).map((w) => [iso(w.start), iso(w.end)]),
    ).toEqual([['2023-02-01', '2023-02-02']]);
    expect(timeWindows('the painting shown on October 13, 2023', now).map((w) => iso(w.start))).toEqual([
      '2023-10-13',
    ]);
    expect(timeWindows('what happened in July 2023', now).map((w) => [iso(w.start), iso(w.end)])).toEqual([
      ['2023-07-01', '2023-08-01'],
    ]);
    expect(timeWindows('trips in 2022', now).map((w) => [iso(w.start), iso(w.end)])).toEqual([
      ['2022-01-01', '2023-01-01'],
    ]);
  });

  it('places a bare month in the latest year not after now and ignores the modal "may"', () => {
    expect(timeWindows('When did Melanie go camping in June?', now).map((w) => iso(w.start))).toEqual([
      '2023-06-01',
    ]);
    expect(timeWindows('what happened in November?', now).map((w) => iso(w.start))).toEqual(['2022-11-01']);
    expect(timeWindows('May I ask what you like?', now)).toEqual([]);
  });

  it('reads expressions relative to now', () => {
    const [y] = timeWindows('what did we say yesterday', now);
    expect(y && iso(y.start)).toBe('2023-10-19');
    const [w] = timeWindows('the game last week', now);
    expect(w && (now.getTime() - w.start.getTime()) / 86_400_000).toBe(7);
    expect(timeWindows('two weeks ago', now)).toHaveLength(1);
    expect(timeWindows('no dates here', now)).toEqual([]);
  });

  it('scores 1 inside a window and decays outside', () => {
    const windows = timeWindows('in July 2023', now);
    expect(temporalMatch(new Date('2023-07-15T00:00:00Z'), windows)).toBe(1);
    const after = temporalMatch(new Date('2023-08-05T00:00:00Z'), windows);
    expect(after).toBeLessThan(1);
    expect(after).toBeGreaterThan(temporalMatch(new Date('2023-12-01T00:00:00Z'), windows));
    expect(temporalMatch(new Date(), [])).toBe(0);
  });
});
