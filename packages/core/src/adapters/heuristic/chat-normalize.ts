/**
 * Normalisation of Discord chat text before the rules run: emoji, URLs, missing apostrophes and
 * contractions are folded into one plain form ("im" → "i am", "dont" → "do not"), so each rule
 * has one spelling to match. Case is kept: captured objects keep the author's capitalisation.
 */

export interface NormalizedChat {
  readonly text: string;
  readonly hadUrl: boolean;
}

export interface Sentence {
  readonly text: string;
  /** The sentence ended with "?". */
  readonly question: boolean;
}

const CUSTOM_EMOJI = /<a?:\w{1,32}:\d+>/g;
const EYE_ROLL = /[\u{1F644}\u{1F612}\u{1F643}\u{1F611}]/gu;
const LAUGH = /[\u{1F602}\u{1F923}\u{1F606}\u{1F605}\u{1F480}]/gu;
const PICTOGRAPH =
  /\p{Extended_Pictographic}|[\u{1F3FB}-\u{1F3FF}]|[\u{1F1E6}-\u{1F1FF}]|\uFE0F|\u200D|\u20E3/gu;
const EMOTICON = /(?<=^|\s)(?::-?[)(DPpO3/|]|;-?[)P]|xD|XD|<3|:'\(|\^\^|\^_\^|-_-|T_T)(?=\s|$)/g;
const URL = /\b(?:https?:\/\/|www\.)\S+/gi;
const SMART_SINGLE = /[\u2018\u2019\u02BC]/g;
const SMART_DOUBLE = /[\u201C\u201D]/g;
const ABBREVIATION = /\b(st|dr|mr|mrs|ms|jr|sr|mt|ft|vs|etc|prof)\.\s/gi;

/** [pattern, replacement] pairs, applied in order with word boundaries, case-insensitively. */
const REWRITES: readonly (readonly [string, string])[] = [
  ["i'm|im|i am", 'i am'],
  ["i've|ive", 'i have'],
  ["i'd", 'i would'],
  ["i'll", 'i will'],
  ["don't|dont", 'do not'],
  ["doesn't|doesnt", 'does not'],
  ["didn't|didnt", 'did not'],
  ["can't|cant|can not", 'cannot'],
  ["won't", 'will not'],
  ["isn't|isnt", 'is not'],
  ["aren't|arent", 'are not'],
  ["wasn't|wasnt", 'was not'],
  ["haven't|havent", 'have not'],
  ["hasn't|hasnt", 'has not'],
  ["you're|youre|ur(?= an? )", 'you are'],
  ["they're|theyre", 'they are'],
  ["we're", 'we are'],
  ["he's|hes", 'he is'],
  ["she's|shes", 'she is'],
  ["that's|thats", 'that is'],
  ["what's|whats", 'what is'],
  ['u', 'you'],
  ['ur|yur', 'your'],
  ['r', 'are'],
  ['gonna', 'going to'],
  ['wanna', 'want to'],
  ['gotta', 'got to'],
  ['fav|fave|favourite|favorit|favrite', 'favorite'],
  ['favs|faves|favourites', 'favorites'],
  ['bday|b-day|birthdate', 'birthday'],
  ['cuz|coz|cos|bc', 'because'],
  ['gf', 'girlfriend'],
  ['bf', 'boyfriend'],
  ['bff', 'best friend'],
  ['pls|plz', 'please'],
  ['luv', 'love'],
  ['realy|rly', 'really'],
  ['smth', 'something'],
  ['rlly', 'really'],
];

const COMPILED = REWRITES.map(
  ([pattern, to]) => [new RegExp(`(?<![\\w'@#/])(?:${pattern})(?![\\w'/])`, 'gi'), to] as const,
);

/** Fold emoji, emoticons, URLs and contractions; collapse whitespace. */
export function normalizeChat(content: string): NormalizedChat {
  let text = content.replace(SMART_SINGLE, "'").replace(SMART_DOUBLE, '"');
  text = text.replace(CUSTOM_EMOJI, ' ').replace(EYE_ROLL, ' /s ').replace(LAUGH, ' lol ');
  text = text.replace(PICTOGRAPH, ' ').replace(EMOTICON, ' ');
  const hadUrl = URL.test(text);
  URL.lastIndex = 0;
  text = text.replace(URL, ' ');
  for (const [re, to] of COMPILED) text = text.replace(re, to);
  text = text.replace(ABBREVIATION, '$1 ');
  text = text
    .replace(/[ \t]+/g, ' ')
    .replace(/ *\n+ */g, '\n')
    .trim();
  return { text, hadUrl };
}

const SENTENCE = /[^.!?\n]+(?:[.!?]+|\n|$)/g;

/** Split on sentence punctuation and newlines; decimals ("3.5") stay whole. */
export function splitSentences(text: string): Sentence[] {
  const guarded = text.replace(/(\d)\.(\d)/g, '$1\u2024$2');
  const out: Sentence[] = [];
  for (const match of guarded.matchAll(SENTENCE)) {
    const raw = match[0];
    const question = /\?/.test(raw);
    const body = raw
      .replace(/[.!?\n]+$/, '')
      .replace(/\u2024/g, '.')
      .trim();
    if (body.length > 0) out.push({ text: body, question });
  }
  return out;
}

/** Letters left once links and punctuation are gone: a bare link or emoji has none. */
export function meaningfulLetters(text: string): number {
  return (text.match(/\p{L}/gu) ?? []).length;
}
