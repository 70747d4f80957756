/**
 * Turning a captured chat phrase into a clean object for a third-person fact: cut at clause
 * boundaries, drop fillers, flip first-person pronouns, reject deictic or empty objects.
 */
import type { EntityKind } from '../../model/enums.js';
import { INSTRUMENTS, SPORTS } from '../../text/word-lists.js';

const BOUNDARY =
  /\s+(?:because|since|when|whenever|while|but|though|although|so that|which|who|whereas|except|unless|lol|lmao|lmfao|haha\w*|hehe\w*|xd|tbh|ngl|fr|imo|imho|honestly|btw|fyi|tho|smh|idk)\b|\s*[,;:!?()"[\]{}|]|\s+-\s+|\s+\/s\b|\s+and (?:i|my|we|you|he|she|they)\b/i;
const TRAILING_FILLER =
  /\s+(?:so much|so so much|very much|a lot|a ton|too|as well|also|a bunch|like crazy|ngl|tbh|lol|fr|haha|now|anyway|anyways|honestly|really|man|dude|bro|guys|y'all|though|tho|and stuff|and all that|or something|i guess|i think|ok|okay|already|still|lately|nowadays|these days|actually)$/i;
const LEADING_FILLER = /^(?:like|just|literally|basically|really|totally|kinda|kind of|sort of|sorta)\s+/i;
const DEICTIC =
  /^(?:it|its|it's|this|that|these|those|them|him|her|you|your|yours|u|ur|ya|y'all|everything|nothing|something|anything|everyone|everybody|nobody|someone|somebody|one|when|how|what|why|where|whatever|which|who|here|there|so|too|such|myself|same|both|all of (?:it|them|you)|the way|the fact|doing that|doing this|being here|it all)\b/i;
/** Trailing adjuncts dropped from an object that is too long ("… with my dog every weekend"). */
const ADJUNCT =
  /\s+(?:every|each|with|during|after|before|whenever|almost|nearly|all the time|most days|on (?:the )?weekends?|at night|in the (?:morning|evening)s?)\b.*$/i;
const SECOND_PERSON = /\b(?:you|your|yours|u|ur|ya|yall|y'all)\b/i;

export interface ObjectOptions {
  /** Maximum words kept (longer objects are declined, not cut). */
  readonly maxWords?: number;
  /** Turn a leading indefinite "this/that" into "a" ("this cool startup" → "a startup"). */
  readonly indefiniteThis?: boolean;
}

const FIRST_PERSON: readonly (readonly [RegExp, string])[] = [
  [/\bmy\b/gi, 'their'],
  [/\bmine\b/gi, 'theirs'],
  [/\bmyself\b/gi, 'themselves'],
  [/\bme\b/gi, 'them'],
  [/\bour\b/gi, 'their'],
  [/\bus\b/gi, 'them'],
];

/** Replace first-person pronouns with singular "they" forms. */
export function flipPronouns(phrase: string): string {
  let out = phrase;
  for (const [re, to] of FIRST_PERSON) out = out.replace(re, to);
  return out;
}

/** When something happened, trailing an object ("seattle last week"): not part of the object. */
const TEMPORAL_TAIL =
  /\s+(?:(?:last|this past|earlier this|just this) (?:week|weekend|month|year|night|summer|winter|spring|fall|autumn)|yesterday|recently|a while ago|(?:a few|a couple of|\d+|two|three|four|five|six) (?:days|weeks|months|years) ago)$/i;

/** Clean a captured object; null when it is empty, deictic, second person or too long. */
export function cleanObject(raw: string, options: ObjectOptions = {}): string | null {
  let text = raw.split(BOUNDARY)[0] ?? '';
  text = text
    .replace(/[.…!]+$/, '')
    .replace(TEMPORAL_TAIL, '')
    .trim();
  for (let i = 0; i < 4; i++) {
    const before = text;
    text = text.replace(TRAILING_FILLER, '').replace(LEADING_FILLER, '').trim();
    if (text === before) break;
  }
  if (options.indefiniteThis === true) {
    text = text.replace(/^(?:this|that)\s+/i, 'a ');
    text = text.replace(
      /^(a|an)\s+(?:(?:really|super|very|pretty)\s+)?(?:cool|awesome|great|nice|amazing|neat|sick|dope|fun|good|little|small)\s+/i,
      'a ',
    );
    text = text.replace(/^a (?=[aeiou])/i, 'an ');
  }
  if (text.length === 0 || DEICTIC.test(text) || SECOND_PERSON.test(text)) return null;
  if (/^(?:i|we|he|she|they)\b/i.test(text)) return null;
  const max = options.maxWords ?? 8;
  if (text.split(/\s+/).length > max) text = text.replace(ADJUNCT, '');
  if (text.split(/\s+/).length > max) return null;
  if (!/\p{L}/u.test(text)) return null;
  return flipPronouns(text);
}

/** Capitalise each word of an all-lowercase proper noun ("new york" → "New York"). */
export function titleCase(phrase: string): string {
  if (/\p{Lu}/u.test(phrase)) return phrase;
  const small = new Set([
    'of',
    'the',
    'and',
    'de',
    'la',
    'le',
    'del',
    'da',
    'von',
    'van',
    'upon',
    'on',
    'in',
  ]);
  return phrase
    .split(/\s+/)
    .map((word, i) =>
      i > 0 && small.has(word) ? word : word.charAt(0).toUpperCase() + word.slice(1).toLowerCase(),
    )
    .join(' ');
}

/** Capitalise the first letter only. */
export function capitalize(phrase: string): string {
  return phrase.charAt(0).toUpperCase() + phrase.slice(1);
}

const IRREGULAR: Readonly<Record<string, string>> = {
  am: 'is',
  are: 'is',
  have: 'has',
  do: 'does',
  go: 'goes',
  was: 'was',
  were: 'was',
};

/** Third-person singular of a base verb ("play" → "plays", "study" → "studies"). */
export function thirdPerson(verb: string): string {
  const lower = verb.toLowerCase();
  const irregular = IRREGULAR[lower];
  if (irregular !== undefined) return irregular;
  if (/(?:ed|s)$/.test(lower) && !/(?:ss|us)$/.test(lower)) return lower;
  if (/[^aeiou]y$/.test(lower)) return `${lower.slice(0, -1)}ies`;
  if (/(?:s|sh|ch|x|z|o)$/.test(lower)) return `${lower}es`;
  return `${lower}s`;
}

/** Base form of a third-person verb ("loves" → "love", "studies" → "study"). */
export function baseForm(verb: string): string {
  const lower = verb.toLowerCase();
  if (lower === 'is') return 'am';
  if (lower === 'has') return 'have';
  if (lower === 'does') return 'do';
  if (lower === 'goes') return 'go';
  if (/ies$/.test(lower)) return `${lower.slice(0, -3)}y`;
  if (/(?:sses|shes|ches|xes|zes|oes)$/.test(lower)) return lower.slice(0, -2);
  if (/[^s]s$/.test(lower)) return lower.slice(0, -1);
  return lower;
}

/** Rewrite "play guitar every day" → "plays guitar every day" (first word only). */
export function predicateThirdPerson(predicate: string): string {
  const [first, ...rest] = predicate.trim().split(/\s+/);
  if (first === undefined) return predicate;
  return [thirdPerson(first), ...rest].join(' ');
}

/** The entity name for an object: no leading article or possessive, at most 64 chars. */
export function entityName(object: string): string | null {
  const name = object
    .replace(/^(?:the|a|an|some|their|his|her|any|all|many|most|lots of|a lot of|two|three|\d+)\s+/i, '')
    .trim();
  if (name.length < 2 || name.length > 64) return null;
  return name;
}

/** Guess what kind of thing a preference object is. */
export function guessKind(object: string): EntityKind {
  const lower = object.toLowerCase();
  if (INSTRUMENTS.has(lower) || SPORTS.has(lower)) return 'activity';
  if (/^\w+ing\b/.test(lower) || /\b\w+ing$/.test(lower)) return 'activity';
  return 'concept';
}

/** Whether a phrase starts with an indefinite or generic determiner (no named entity). */
export function isGeneric(object: string): boolean {
  return /^(?:a|an|some|any|another|one|two|three|several|many|few|lots)\b/i.test(object);
}

const GERUND_IRREGULAR: Readonly<Record<string, string>> = {
  be: 'being',
  have: 'having',
  am: 'being',
  is: 'being',
  see: 'seeing',
};

/** "-ing" form of a base verb ("eat" → "eating", "live" → "living", "run" → "running"). */
export function gerund(verb: string): string {
  const lower = verb.toLowerCase();
  const irregular = GERUND_IRREGULAR[lower];
  if (irregular !== undefined) return irregular;
  if (lower.endsWith('ie')) return `${lower.slice(0, -2)}ying`;
  if (/[^aeiouy]e$/.test(lower) && lower.length > 2) return `${lower.slice(0, -1)}ing`;
  if (/^[^aeiou]*[aeiou][bdgmnpt]$/.test(lower)) return `${lower}${lower.slice(-1)}ing`;
  return `${lower}ing`;
}

/** "X is something Alice loves": puts the object first, far from the wording of the message. */
export function fronted(object: string, rest: string): string {
  return `${capitalize(object)} ${rest}`;
}

const LIST = /^([^,;.!?]+(?:,\s*[^,;.!?]+)+,?\s+(?:and|or|&)\s+[^,;.!?]+)/i;

/** "cooking, reading and hiking" → three cleaned items; null unless it is a comma list. */
export function cleanList(raw: string): string[] | null {
  const m = LIST.exec(raw);
  if (m === null) return null;
  const items = (m[1] ?? '')
    .split(/\s*,\s*(?:and\s+|or\s+|&\s+)?|\s+(?:and|or|&)\s+/)
    .filter((i) => i.length > 0);
  if (items.length < 2 || items.length > 6) return null;
  const cleaned: string[] = [];
  for (const item of items) {
    const c = cleanObject(item, { maxWords: 4 });
    if (c === null) return null;
    cleaned.push(c);
  }
  return cleaned;
}

/** "a, b and c". */
export function joinList(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
