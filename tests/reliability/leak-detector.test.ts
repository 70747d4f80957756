import { createUlidIdGen } from '@permafrost/core';
import { describe, expect, it } from 'vitest';
import { leaks } from './support/reads.js';
import { MARKER_FRAME, marker, markerStem } from './support/world.js';

/**
 * The leak detector of the isolation, opt-out and purge properties (issue #18 §13): it must never
 * report a random id as a leak (the property flaked ~1 % when a fact id spelled `zqga`), and must
 * always report a real cross-guild word.
 */
describe('leak detector', () => {
  it('an id that happens to contain a marker stem is not a leak', () => {
    // An id shaped exactly like the ones that made the property flake (old `zq` frame).
    const id = 'fct_01jd8zqgam3xw7k2p9r4t6v8yb';
    expect(id.includes('zqga')).toBe(true);
    const read: [string, unknown][] = [['facts.getAll', [{ id, text: 'Alice likes tea', supersedesId: id }]]];
    expect(leaks(read, ['zqga'])).toEqual([]);
  });

  it('no Permafrost id can contain a marker stem (the frame holds a letter ULIDs never use)', () => {
    expect(MARKER_FRAME).toContain('u');
    const ids = createUlidIdGen();
    const stems = ['ga', 'gb', 'tp', 'ot'].map(markerStem);
    for (let i = 0; i < 20_000; i++) {
      const id = ids.next('fct');
      for (const stem of stems) expect(id.includes(stem)).toBe(false);
    }
  });

  it('a real cross-guild text is a leak, wherever it sits in the result', () => {
    const word = marker('gb', 3);
    const reads: [string, unknown][] = [
      [
        'recall.guild',
        { facts: [{ id: 'fct_01jd8m3xw7k2p9r4t6v8ybq0aa', text: `Bob collects ${word} stamps` }] },
      ],
      ['promptContext', { block: `- [mem:1] Bob likes ${word.toUpperCase()}` }],
      ['identity.resolve:X', { resolved: null, candidates: [] }],
    ];
    expect(leaks(reads, [markerStem('gb')])).toEqual([
      `recall.guild ⊃ ${markerStem('gb')}`,
      `promptContext ⊃ ${markerStem('gb')}`,
    ]);
  });
});
