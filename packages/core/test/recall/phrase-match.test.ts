import { describe, expect, it } from 'vitest';
import { phraseMatch, queryPhrases } from '../../src/recall/phrase-match.js';

describe('phrase match', () => {
  it('pairs adjacent analysed query terms, stop words removed', () => {
    expect([...queryPhrases('What play did I see at the local community theater?')]).toEqual([
      'plai see',
      'see local',
      'local commun',
      'commun theater',
    ]);
    expect(queryPhrases('theater').size).toBe(0);
  });

  it('is the share of query pairs found next to each other, in order', () => {
    const phrases = queryPhrases('the 5K charity run');
    expect(phraseMatch(phrases, 'I did a 5K charity run today')).toBe(1);
    expect(phraseMatch(phrases, 'a charity 5K run/walk')).toBe(0);
    expect(phraseMatch(phrases, 'the charity run was long, then a 5K')).toBe(0.5);
    expect(phraseMatch(new Set(), 'a 5K charity run')).toBe(0);
  });
});
