import { describe, expect, it } from 'vitest';
import { indexTerms, tokenize } from '../../src/text/analyze.js';

/** The fold every token goes through, without the printable-ASCII shortcut. */
const slowTokens = (text: string) =>
  [
    ...text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .matchAll(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu),
  ].map((m) => m[0].replace(/['’]/g, ''));

describe('text analysis', () => {
  it('folds accents and compatibility forms, and leaves printable ASCII as the full fold does', () => {
    expect(tokenize('Café naïve ﬁsh Ｆｕｌｌ')).toEqual(['cafe', 'naive', 'fish', 'full']);
    expect(tokenize("Don't STOP\tthe 5K run!")).toEqual(['dont', 'stop', 'the', '5k', 'run']);
    const samples = [
      'I really enjoy hiking near the river, with my friends.',
      "we'll meet at 7pm -- bring snacks :) #weekend @sam",
      'Ünïcödé mixed with ascii and emoji 🎉 and tabs\tand\nnewlines',
      '',
    ];
    for (const s of samples) expect(tokenize(s)).toEqual(slowTokens(s));
  });

  it('gives the same terms however often a word was analysed before', () => {
    const text = 'Running runners ran to the running club; the club runs on Sundays';
    const first = indexTerms(text);
    expect(first).toEqual(['run', 'runner', 'run', 'run', 'club', 'club', 'run', 'sundai']);
    for (let i = 0; i < 3; i++) expect(indexTerms(text)).toEqual(first);
  });
});
