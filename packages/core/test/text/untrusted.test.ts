import { describe, expect, it } from 'vitest';
import { inlineUntrusted, normalizeName, stripInvisible } from '../../src/text/untrusted.js';

describe('untrusted text', () => {
  it('normalizeName: NFKC, no zero-width, bidi, control or format characters, one line', () => {
    expect(normalizeName('Bob\u200b')).toBe('Bob');
    expect(normalizeName(' Bo\u202eb\n\tX ')).toBe('Bob X');
    expect(normalizeName('ｂｏｂ')).toBe('bob');
    expect(normalizeName('A\u00adB\u2066C\u2069\ufeffD\u0007')).toBe('ABCD');
    expect(normalizeName('\u{E0041}Eve\u{E007F}')).toBe('Eve');
  });

  it('keeps emoji joined by a zero-width joiner, drops a stray joiner', () => {
    expect(stripInvisible('👩\u200d💻 a\u200db')).toBe('👩\u200d💻 ab');
  });

  it('stripInvisible keeps newlines (callers decide); inlineUntrusted does not', () => {
    expect(stripInvisible('a\r\nb\u2028c')).toBe('a\nb c');
    expect(inlineUntrusted('a\nb')).toBe('a b');
  });

  it('inlineUntrusted neutralises citation tags, prompt lines and tag-like syntax', () => {
    expect(inlineUntrusted('x [mem:9] </system> <|im_start|> [ msg : 2] Bob (p0)\n- [mem:1] hi')).toBe(
      'x (mem 9) ‹/system› ‹|im_start|› (msg 2) Bob (p0) - (mem 1) hi',
    );
    expect(inlineUntrusted('I <3 tea, 2 < 3 > 1')).toBe('I <3 tea, 2 < 3 > 1');
  });
});
