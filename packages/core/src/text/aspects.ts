/**
 * The aspect of a fact text: what about the subject it describes (residence, job, a preference
 * keyed by its object, …), its polarity, and its value for single-valued aspects. Pure and
 * deterministic; the pipeline's contradiction rule may reuse sameAspect / polarityFlip.
 */
import { indexTerms, tokenize } from './analyze.js';
import { KIN, PETS, PROFESSIONS } from './word-lists.js';

export type AspectFamily =
  | 'pronouns'
  | 'birthday'
  | 'pet'
  | 'name'
  | 'allergy'
  | 'diet'
  | 'relationship'
  | 'residence'
  | 'origin'
  | 'school'
  | 'job'
  | 'favorite'
  | 'preference';

export interface Aspect {
  readonly family: AspectFamily;
  /** Family plus qualifier: `pet:dog`, `favorite:color`; the family alone otherwise. */
  readonly key: string;
  /** Stemmed content terms of the value or object (what is lived in, liked, …). */
  readonly terms: readonly string[];
  readonly polarity: 1 | -1;
}

/** Aspects that hold one value at a time: a different value contradicts. */
const SINGLE_VALUED = new Set<AspectFamily>([
  'residence',
  'origin',
  'job',
  'school',
  'relationship',
  'name',
  'pronouns',
  'birthday',
  'diet',
  'favorite',
]);
/** Aspects keyed by their object: two facts share the aspect when their objects overlap. */
const OBJECT_KEYED = new Set<AspectFamily>(['preference', 'allergy']);

const GENERIC = new Set(
  indexTerms('play playing plays regularly the their lot really much thing things stuff kind sort whole'),
);
const terms = (phrase: string): string[] => [...new Set(indexTerms(phrase).filter((t) => !GENERIC.has(t)))];

const PET_RE = [...PETS].sort((a, b) => b.length - a.length).join('|');
const KIN_RE = [...KIN].sort((a, b) => b.length - a.length).join('|');
const NEGATION =
  /\b(?:no longer|not|never|stopped|quit|gave up|given up|left|lost|fired|laid off|retired|unemployed|passed away|died|broke up|outgrew|dropped out|graduated|rehomed|gave away)\b/;

function prepare(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/\s*\(according to [^)]*\)/g, '')
    .replace(/\bfavourite\b/g, 'favorite')
    .replace(/n't\b/g, ' not')
    .replace(/[\s.!]+$/, '')
    .trim();
}

/** Families whose values are short literal tokens (pronouns are stop words to a keyword index). */
const LITERAL = new Set<AspectFamily>(['pronouns', 'name', 'birthday']);

function make(family: AspectFamily, value: string, negative: boolean, qualifier = ''): Aspect {
  return {
    family,
    key: qualifier === '' ? family : `${family}:${qualifier}`,
    terms: LITERAL.has(family) ? [...new Set(tokenize(value))] : terms(value),
    polarity: negative ? -1 : 1,
  };
}

const RELATIONSHIP_VALUE: readonly (readonly [RegExp, string])[] = [
  [/\b(?:married|wife|husband|spouse)\b/, 'married'],
  [/\b(?:engaged|getting married|fianc[eé]e?)\b/, 'engaged'],
  [/\b(?:divorced|single|widowed|broke up)\b/, 'single'],
  [/\b(?:dating|girlfriend|boyfriend|partner|in a relationship|seeing someone)\b/, 'partnered'],
];
const DIET_LABELS =
  /\b(vegan|vegetarian|pescatarian|pescetarian|plant-based|keto|carnivore|kosher|halal|sober)\b/;
const PREFERENCE =
  /\b(loves|likes|enjoys|adores|is a fan of|is fond of|is into|is obsessed with|is addicted to|has a liking for|prefers|would pick|plays|regularly plays|is learning|is currently studying|collects|hates|dislikes|strongly dislikes|has a dislike of|detests|despises|is not a fan of|has given up|gave up|quit|stopped|no longer [a-z]+|does not (?:like|enjoy|play|eat|drink|watch)|avoids) (.+)$/;
const NEGATIVE_VERB =
  /^(?:hates|dislikes|strongly dislikes|has a dislike of|detests|despises|is not a fan of|has given up|gave up|quit|stopped|no longer|does not|avoids)/;

/** Parse a third-person fact text; null when no known aspect is recognised. */
export function aspectOf(text: string): Aspect | null {
  const s = prepare(text);
  if (new RegExp(`^[\\w' -]+?'s (?:${KIN_RE})\\b`).test(s)) return null;
  const neg = NEGATION.test(s);
  if (/\bpronouns?\b/.test(s))
    return make(
      'pronouns',
      /([a-z]+\/[a-z]+(?:\/[a-z]+)?|any)/.exec(s.replace(/.*pronouns? (?:are )?/, ''))?.[1] ?? s,
      false,
    );
  if (/\bbirthday\b|\bwas born on\b/.test(s))
    return make(
      'birthday',
      s.replace(/^.*?\b(?:birthday is|born on|birthday)\b/, '').replace(/^\s*(?:on|in)\s+/, ''),
      false,
    );
  const pet = new RegExp(`\\b(${PET_RE})(?:s|es)?\\b`).exec(s);
  if (pet !== null && /\b(?:has|had|owns|owned|adopted|got|named|called|name is|pet)\b/.test(s)) {
    const name = /\b(?:named|called|name is) ([a-z][\w'-]*)/.exec(s)?.[1] ?? '';
    return make('pet', name, neg, pet[1] ?? '');
  }
  const name =
    /(?:^|\s)(?:[\w'-]+'s )?(?:real |full |first |preferred )?name is ([a-z][\w'.-]*)|\b(?:goes by|prefers to be called|is named)(?: the name)? ([a-z][\w'.-]*)/.exec(
      s,
    );
  if (name !== null) return make('name', name[1] ?? name[2] ?? '', false);
  const allergy = /\ballergic to ([^,;()]+)|\bhas an? ([\w -]+?) allergy\b|\ballergy to ([^,;()]+)/.exec(s);
  if (allergy !== null) return make('allergy', allergy[1] ?? allergy[2] ?? allergy[3] ?? '', neg);
  const label = DIET_LABELS.exec(s);
  const eats =
    /\b(eats|does not eat|stopped eating|quit eating|no longer eats|gave up) (meat|pork|beef|red meat|fish|dairy|gluten|eggs|seafood|animal products)\b/.exec(
      s,
    );
  if (label !== null) return make('diet', label[1] ?? '', neg);
  if (eats !== null) return make('diet', eats[1] === 'eats' ? 'omnivore' : `no ${eats[2] ?? ''}`, false);
  if (
    /\b(?:married|engaged|divorced|single|widowed|dating|in a relationship|broke up|seeing someone)\b|\bhas an? (?:girlfriend|boyfriend|partner|wife|husband|fianc[eé]e?)\b/.test(
      s,
    )
  ) {
    const value = RELATIONSHIP_VALUE.find(([re]) => re.test(s))?.[1] ?? 'partnered';
    return make('relationship', value, false);
  }
  const residence =
    /\b(?:lives|lived|living|resides|is based|based) (?:in|on|near) ([^,;()]+)|\b(?:moved|relocated|is moving|has moved|moving|relocating) (?:back |over |out )?to ([^,;()]+)/.exec(
      s,
    );
  if (residence !== null)
    return make('residence', stripTail(residence[1] ?? residence[2] ?? ''), /\bno longer\b|\bnot\b/.test(s));
  const origin = /\b(?:is|comes) (?:originally )?from ([^,;()]+)|\bwas born in ([^,;()\d]+)/.exec(s);
  if (origin !== null) return make('origin', stripTail(origin[1] ?? origin[2] ?? ''), false);
  const school =
    /\b(?:studies|is studying|attends|is attending|is a (?:[\w-]+ )*student|graduated|dropped out|is enrolled|majors?|is majoring)\b(?: (?:at|in|from|of))? ?([^,;()]*)/.exec(
      s,
    );
  if (school !== null && !/\bis learning\b/.test(s)) {
    const at = /\b(?:at|from) ([^,;()]+)$/.exec(s)?.[1];
    return make(
      'school',
      stripTail(at ?? school[1] ?? ''),
      /\b(?:graduated|dropped out|no longer|not)\b/.test(s),
    );
  }
  if (isJob(s)) {
    const employer =
      /\b(?:works|worked|working|employed|job|promoted|hired|started working|nurse|[a-z]+) (?:at|for|by) ([^,;()]+?)(?: as .*)?$/.exec(
        s,
      )?.[1] ?? '';
    return make('job', stripTail(employer), neg);
  }
  const favorite =
    /\bfavorite ([a-z]+(?: [a-z]+)?) is ([^,;()]+)|^(.+?) is [\w' -]+?'s favorite ([a-z]+(?: [a-z]+)?)|favorite ([a-z]+) as|as their favorite ([a-z]+(?: [a-z]+)?)/.exec(
      s,
    );
  if (favorite !== null) {
    const category = favorite[1] ?? favorite[4] ?? favorite[6] ?? favorite[5] ?? '';
    const value = favorite[2] ?? favorite[3] ?? /names (.+?) as their favorite/.exec(s)?.[1] ?? '';
    return make('favorite', value, false, category.replace(/s$/, ''));
  }
  const pref = PREFERENCE.exec(s);
  if (pref !== null) {
    const verb = pref[1] ?? '';
    const object = (pref[2] ?? '').replace(/ (?:over|and puts it|instead of|rather than) .*$/, '');
    const negative = NEGATIVE_VERB.test(verb) !== /\b(?:no longer|not)\b/.test(s.slice(0, pref.index));
    return make('preference', object, negative);
  }
  return null;
}

function stripTail(value: string): string {
  return value.replace(/\s+(?:for|since|now|these days|as an?|with)\b.*$/, '').trim();
}

function isJob(s: string): boolean {
  if (
    /\b(?:works|worked|working|is employed) (?:at|for|in|as)\b|\bwas (?:promoted|hired|fired|laid off)\b|\b(?:quit|left|lost) (?:their|her|his|the|a|my) job\b|\bis (?:retired|unemployed|self-employed|between jobs)\b|\bstarted working\b|\bhas a (?:new )?job\b|\bjob as\b|\bis employed\b/.test(
      s,
    )
  ) {
    return true;
  }
  const isA = /\bis an? ((?:[\w-]+ ){0,3}?([\w-]+))(?: at| for|$)/.exec(s);
  return isA !== null && PROFESSIONS.has(isA[2] ?? '');
}

function overlap(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const setB = new Set(b);
  const shared = a.filter((t) => setB.has(t)).length;
  return shared / new Set([...a, ...b]).size;
}

/** The text describes an aspect that holds one value at a time (residence, job, name, …). */
export function isSingleValued(text: string): boolean {
  const aspect = aspectOf(text);
  return aspect !== null && SINGLE_VALUED.has(aspect.family);
}

/** Both texts describe the same aspect of a subject (residence, job, preference for X, …). */
export function sameAspect(a: string, b: string): boolean {
  const x = aspectOf(a);
  const y = aspectOf(b);
  if (x === null || y === null || x.key !== y.key) return false;
  return OBJECT_KEYED.has(x.family) ? overlap(x.terms, y.terms) >= 0.5 : true;
}

/**
 * The two texts cannot both hold now: same aspect with opposite polarity ("loves X" / "quit X"),
 * or two different values of a single-valued aspect ("lives in Omaha" / "moved to Seattle").
 */
export function polarityFlip(a: string, b: string): boolean {
  if (!sameAspect(a, b)) return false;
  const x = aspectOf(a) as Aspect;
  const y = aspectOf(b) as Aspect;
  if (x.polarity !== y.polarity) return true;
  if (!SINGLE_VALUED.has(x.family) || x.terms.length === 0 || y.terms.length === 0) return false;
  return overlap(x.terms, y.terms) === 0;
}
