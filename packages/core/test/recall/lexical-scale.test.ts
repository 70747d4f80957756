import { describe, expect, it } from 'vitest';
import { lexicalDivisor } from '../../src/recall/lexical-scale.js';

describe('lexicalDivisor', () => {
  it('is the best score when the full match is unknown, or when floor × full match is smaller', () => {
    expect(lexicalDivisor(4, undefined, 0.3)).toBe(4);
    expect(lexicalDivisor(4, 10, 0.3)).toBe(4);
    expect(lexicalDivisor(4, 10, 0)).toBe(4);
  });

  it('is floor × the full-match score when the best hit falls short of it', () => {
    expect(lexicalDivisor(1, 10, 0.3)).toBeCloseTo(3, 12);
    expect(lexicalDivisor(0, 10, 0.5)).toBe(5);
  });

  it('ignores a full-match score that is not a finite number', () => {
    expect(lexicalDivisor(2, Number.NaN, 0.3)).toBe(2);
    expect(lexicalDivisor(2, Number.POSITIVE_INFINITY, 0.3)).toBe(2);
    expect(lexicalDivisor(0, undefined, 0.3)).toBe(0);
  });
});
