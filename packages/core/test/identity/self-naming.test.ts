import { describe, expect, it } from 'vitest';
import { findSelfNamings, parseStatedName } from '../../src/text/self-naming.js';

/** One Unicode-aware self-naming parser (issue 18 §7), in many scripts. */
describe('findSelfNamings', () => {
  const cases: readonly [string, string, string, 'name' | 'nickname'][] = [
    ['accents (Spanish)', 'my name is José and I live in Zürich', 'José', 'name'],
    ['diaeresis', 'call me Zoë', 'Zoë', 'nickname'],
    ['German', 'my name is Jürgen Groß', 'Jürgen Groß', 'name'],
    ['German ß alone', 'i go by Weiß', 'Weiß', 'nickname'],
    ['Cyrillic', 'my name is Дмитрий and I like chess', 'Дмитрий', 'name'],
    ['Cyrillic nickname', 'just call me Дима', 'Дима', 'nickname'],
    ['Greek', 'my name is Γιώργος', 'Γιώργος', 'name'],
    ['Japanese', 'my name is 山田花子', '山田花子', 'name'],
    ['Japanese kana', 'call me さくら', 'さくら', 'nickname'],
    ['Arabic', 'my name is فاطمة', 'فاطمة', 'name'],
    ['Hindi (combining marks)', 'my name is प्रिया', 'प्रिया', 'name'],
    ['emoji nickname', 'call me 🦊Foxy', '🦊Foxy', 'nickname'],
    ['emoji only', 'everyone call me 🐉', '🐉', 'nickname'],
    ['apostrophe and hyphen', "my name's Zoë-Ann O'Neil", "Zoë-Ann O'Neil", 'name'],
    ['curly apostrophe', 'my name’s Chloé', 'Chloé', 'name'],
  ];
  it.each(cases)('%s', (_label, text, name, kind) => {
    expect(findSelfNamings(text)).toEqual([{ name, kind }]);
  });

  it('names of other people are never the speaker’s', () => {
    for (const text of [
      "my brother's name is José",
      "Nolan's last name is Zoë",
      'my dog’s name is Ünal',
      "don't call me Дима",
      'someone named Γιώργος called',
    ])
      expect(findSelfNamings(text), text).toEqual([]);
  });

  it('words that are not names are not names', () => {
    for (const text of ['call me crazy', 'my name is not important', 'call me later', 'call me maybe'])
      expect(findSelfNamings(text), text).toEqual([]);
  });

  it('anchored: the statement must open the clause', () => {
    expect(findSelfNamings('btw my name is José', { anchored: true })).toEqual([]);
    expect(findSelfNamings('btw my name is José')).toEqual([{ name: 'José', kind: 'name' }]);
    expect(findSelfNamings('néanmoins my name is Léa')).toEqual([{ name: 'Léa', kind: 'name' }]);
  });

  it('parseStatedName keeps a second word only when it continues the name', () => {
    expect(parseStatedName('Anna Maria')).toBe('Anna Maria');
    expect(parseStatedName('José and more')).toBe('José');
    expect(parseStatedName('Zoë.')).toBe('Zoë');
    expect(parseStatedName('x')).toBeNull();
  });
});
