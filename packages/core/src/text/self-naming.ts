/**
 * The one parser of names members state for themselves ("my name is José", "call me Zoë",
 * "i go by Дима", "my name is 太郎", "call me 🦊Foxy"). Names are Unicode: letters and marks of
 * any script, digits after the first character, apostrophes, dots, hyphens and emoji. Used by the
 * offline extractor (fact text) and by alias mining (the alias bound to the author).
 */

/** One name word: starts with a letter or pictograph; letters, marks, digits, joiners, ' . - after. */
const WORD =
  "[\\p{L}\\p{Extended_Pictographic}][\\p{L}\\p{M}\\p{N}\\p{Extended_Pictographic}\\u200D\\uFE0F'’.-]*";
const NAME_AT_START = new RegExp(`^(${WORD})(?:\\s+(${WORD}))?`, 'u');

/** A second word that ends the name rather than continuing it. */
const FUNCTION_WORDS = new Set([
  'and',
  'but',
  'or',
  'so',
  'the',
  'a',
  'an',
  'is',
  'it',
  'to',
  'too',
  'also',
  'then',
  'btw',
  'lol',
  'haha',
  'by',
  'here',
  'now',
  'on',
  'in',
  'at',
  'please',
  'pls',
  'thanks',
  'from',
  'if',
  'when',
  'because',
  'though',
  'tho',
  'but',
  'not',
]);

/** First words that are never a name ("call me crazy", "my name is not important"). */
const NOT_A_NAME = new Set([
  'not',
  'a',
  'an',
  'the',
  'just',
  'actually',
  'literally',
  'also',
  'maybe',
  'whatever',
  'anything',
  'anytime',
  'later',
  'back',
  'crazy',
  'what',
  'that',
  'this',
  'it',
  'you',
  'me',
  'him',
  'her',
  'them',
  'bro',
  'dude',
  'sir',
  'maam',
  'tomorrow',
  'tonight',
  'now',
  'when',
  'out',
  'up',
  'names',
  'something',
  'nothing',
  'kinda',
  'like',
  'old',
  'lazy',
  'stupid',
  'dumb',
  'weird',
  'pronouns',
  'he',
  'she',
  'they',
  'his',
  'hers',
  'theirs',
  'and',
  'but',
  'or',
  'so',
  'is',
  'to',
]);

const TRAILING_PUNCTUATION = /[.'’-]+$/u;

/** At most two words of a stated name, as written; null when the words are not a name. */
export function parseStatedName(raw: string): string | null {
  const m = NAME_AT_START.exec(raw.trim());
  if (m === null) return null;
  const first = (m[1] ?? '').replace(TRAILING_PUNCTUATION, '');
  if ([...first].length < 2 && !/\p{Extended_Pictographic}/u.test(first)) return null;
  if (NOT_A_NAME.has(first.toLowerCase())) return null;
  const second = m[2]?.replace(TRAILING_PUNCTUATION, '');
  const keepSecond =
    second !== undefined &&
    [...second].length > 1 &&
    !FUNCTION_WORDS.has(second.toLowerCase()) &&
    !NOT_A_NAME.has(second.toLowerCase());
  return keepSecond ? `${first} ${second}` : first;
}

export type SelfNamingKind = 'name' | 'nickname';

export interface SelfNaming {
  /** The name as written (1–2 words). */
  readonly name: string;
  /** "my name is X" → name; "call me X" / "i go by X" → nickname. */
  readonly kind: SelfNamingKind;
}

const START = '(?<![\\p{L}\\p{N}])';
const PATTERNS: readonly { readonly re: RegExp; readonly kind: SelfNamingKind }[] = [
  {
    re: new RegExp(`${START}my (?:real |full |first |actual |legal |given )?name(?: is|'s|’s) (.+)`, 'iu'),
    kind: 'name',
  },
  {
    re: new RegExp(
      `${START}(?:(?:you can|u can|just|please|everyone|y'all can|feel free to) )*call me (.+)`,
      'iu',
    ),
    kind: 'nickname',
  },
  { re: new RegExp(`${START}i (?:usually |mostly |also |now )?go by (.+)`, 'iu'), kind: 'nickname' },
];

/** "my brother's name is X", "my dog is called X", "don't call me X": not the speaker's own name. */
const NOT_MINE =
  /(?:^|\s)(?:my|our|his|her|their)\s+(?:\S+\s+)?(?:brother|sister|mom|mother|dad|father|cousin|uncle|aunt|grandma|grandpa|friend|roommate|boss|wife|husband|partner|son|daughter|kid|dog|cat|pet|bird|horse|fish|teacher|coworker|colleague|neighbou?r|boyfriend|girlfriend)(?:'s|’s)?\s+name(?![\p{L}])|[\p{L}]+(?:'s|’s) (?:real |full |first |last )?name(?![\p{L}])|someone named|don'?t call me|pronouns?/iu;

/**
 * Every name the text states for its own author, in pattern order ("my name is X" first).
 * `anchored` requires the statement to open the text (the offline extractor works on clauses).
 */
export function findSelfNamings(text: string, options: { anchored?: boolean } = {}): SelfNaming[] {
  const t = text.trim();
  if (NOT_MINE.test(t)) return [];
  const out: SelfNaming[] = [];
  for (const { re, kind } of PATTERNS) {
    const m = re.exec(t);
    if (m === null || (options.anchored === true && m.index !== 0)) continue;
    const name = parseStatedName(m[1] ?? '');
    if (name !== null && !out.some((o) => o.name.toLowerCase() === name.toLowerCase()))
      out.push({ name, kind });
  }
  return out;
}
