import { describe, expect, it } from 'vitest';
import { longestMatches, ngrams, queryWords } from '../../src/recall/query-ngrams.js';

describe('query n-grams', () => {
  it('drops possessives and keeps at most 16 words', () => {
    expect(queryWords("What is Jon's favourite New York café?")).toEqual([
      'what',
      'is',
      'jon',
      'favourite',
      'new',
      'york',
      'café',
    ]);
    expect(queryWords(Array.from({ length: 30 }, (_, i) => `w${i}`).join(' '))).toHaveLength(16);
  });

  it('matches the longest n-gram (up to 4 words) first and consumes its words', () => {
    const words = queryWords('who in the new york city marathon club likes new york');
    const known = new Set(['new york', 'new york city marathon', 'york']);
    const found = longestMatches(ngrams(words), (t) => known.has(t)).map((g) => g.text);
    expect(found).toEqual(['new york city marathon', 'new york']);
  });

  it('never proposes stop words or short words alone', () => {
    const grams = ngrams(queryWords('is it ok to go')).map((g) => g.text);
    expect(grams.filter((g) => !g.includes(' '))).toEqual([]);
  });
});
