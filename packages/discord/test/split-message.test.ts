import { describe, expect, it } from 'vitest';
import { pageLines, splitMessage } from '../src/text/split-message.js';

describe('splitMessage', () => {
  it('keeps short text whole and never returns an empty list', () => {
    expect(splitMessage('hello')).toEqual(['hello']);
    expect(splitMessage('')).toEqual(['']);
  });

  it('cuts at line breaks, then spaces, then inside an over-long word', () => {
    expect(splitMessage('aaa\nbbb ccc', 7)).toEqual(['aaa', 'bbb ccc']);
    expect(splitMessage('aaaa bbbb cccc', 9)).toEqual(['aaaa bbbb', 'cccc']);
    expect(splitMessage('x'.repeat(25), 10)).toEqual(['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)]);
  });

  it('every part fits and no word is lost', () => {
    const words = Array.from({ length: 900 }, (_, i) => `word${i}`);
    const text = words.join(' ');
    const parts = splitMessage(text);
    expect(parts.length).toBeGreaterThan(2);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(2000);
    expect(parts.join(' ').split(' ')).toEqual(words);
  });
});

describe('pageLines', () => {
  it('packs whole lines into pages and splits a line longer than a page', () => {
    expect(pageLines(['a', 'b', 'c'], 3)).toEqual(['a\nb', 'c']);
    expect(pageLines(['abcdef'], 4)).toEqual(['abcd', 'ef']);
    expect(pageLines([])).toEqual(['']);
  });
});
