/** Likes, loves, dislikes, preferences and favourites. */
import type { ProposedEntity } from '../../../extraction/extraction-contract.js';
import {
  capitalize,
  cleanList,
  cleanObject,
  entityName,
  fronted,
  guessKind,
  isGeneric,
  joinList,
} from '../phrase-utils.js';
import { type Clause, type Draft, draft, type Rule } from '../rule-types.js';

const ADVERB =
  '(?:really|truly|absolutely|totally|genuinely|honestly|actually|seriously|literally|still|also|just|definitely|def|lowkey|low key|highkey|secretly|do|kinda|kind of|sort of|sorta|pretty much|especially|personally|always|have always|have grown to|grew to|fucking|freaking|so|super|deeply|mostly|now|simply|passionately|generally|usually|mainly)';

interface PreferenceVerb {
  readonly re: string;
  readonly says: string;
  readonly verb: string;
  readonly confidence: number;
  readonly positive: boolean;
}

/** Longest alternatives first: the regex takes the first that matches. */
const VERBS: readonly PreferenceVerb[] = [
  {
    re: 'cannot stand|can never stand|could never stand',
    says: 'strongly dislikes',
    verb: 'hates',
    confidence: 0.82,
    positive: false,
  },
  {
    re: 'do not (?:really |much |particularly )?(?:like|enjoy|care for)|never (?:really )?liked|am not (?:(?:really|a|much of a|the biggest) )*(?:big )?fan of|am not (?:really )?into',
    says: 'dislikes',
    verb: 'dislikes',
    confidence: 0.75,
    positive: false,
  },
  {
    re: 'am (?:so |completely |totally )?obsessed with|am (?:totally |completely )?in love with|have a soft spot for|am addicted to',
    says: 'loves',
    verb: 'loves',
    confidence: 0.84,
    positive: true,
  },
  {
    re: 'am (?:a |such a )?(?:big |huge |massive |giant |die-hard |diehard )?fan of',
    says: 'is a fan of',
    verb: 'fan_of',
    confidence: 0.82,
    positive: true,
  },
  {
    re: 'am (?:really |very |super |so )?into',
    says: 'is into',
    verb: 'likes',
    confidence: 0.78,
    positive: true,
  },
  { re: 'love|luv|adore', says: 'loves', verb: 'loves', confidence: 0.84, positive: true },
  { re: 'like|dig', says: 'likes', verb: 'likes', confidence: 0.78, positive: true },
  { re: 'enjoy', says: 'enjoys', verb: 'enjoys', confidence: 0.8, positive: true },
  { re: 'hate|detest|despise|loathe|abhor', says: 'hates', verb: 'hates', confidence: 0.82, positive: false },
  { re: 'dislike', says: 'dislikes', verb: 'dislikes', confidence: 0.8, positive: false },
];

const HEDGE_WORD = /\b(?:kinda|kind of|sort of|sorta)\b/i;
const PREFERENCE = new RegExp(`^i (?:${ADVERB} )*(${VERBS.map((v) => v.re).join('|')}) (.+)$`, 'i');
const PREFER = new RegExp(`^i (?:${ADVERB} )*(?:prefer|would rather have) (.+)$`, 'i');
const COMPARATOR = /\s+(?:over|rather than|instead of|more than|than|to)\s+/i;

function verbFor(phrase: string): PreferenceVerb | null {
  for (const v of VERBS) if (new RegExp(`^(?:${v.re})$`, 'i').test(phrase)) return v;
  return null;
}

function entityFor(object: string): ProposedEntity | null {
  if (isGeneric(object)) return null;
  const name = entityName(object);
  return name === null ? null : { name, kind: guessKind(name) };
}

const preference: Rule = {
  id: 'preference',
  match(clause: Clause, { name }): Draft | null {
    const m = PREFERENCE.exec(clause.text);
    if (m === null) return null;
    const verb = verbFor(m[1] ?? '');
    const list = cleanList(m[2] ?? '');
    const object = list === null ? cleanObject(m[2] ?? '') : joinList(list);
    if (verb === null || object === null) return null;
    const hedged = HEDGE_WORD.test(clause.text.slice(0, m.index + (m[0].length - (m[2]?.length ?? 0))));
    const confidence = verb.confidence - (hedged ? 0.12 : 0);
    const entities = (list ?? [object]).map(entityFor).filter((e): e is ProposedEntity => e !== null);
    const entity = entities[0] ?? null;
    const activity = entity !== null && entity.kind === 'activity';
    const category = verb.positive && activity ? 'interests' : 'preferences';
    const texts = [`${name} ${verb.says} ${object}`];
    if (verb.positive) texts.push(`${name} is fond of ${object}`, `${name} has a liking for ${object}`);
    else texts.push(`${name} has a dislike of ${object}`);
    texts.push(fronted(object, `is something ${name} ${verb.says}`));
    if (list !== null) return { texts, category, confidence, entities, verb: verb.verb, relateAll: true };
    return draft(texts, category, confidence, entity, verb.verb);
  },
};

const prefer: Rule = {
  id: 'prefer',
  match(clause: Clause, { name }): Draft | null {
    const m = PREFER.exec(clause.text);
    if (m === null) return null;
    const body = m[1] ?? '';
    if (/^(?:not|that|when|if|how|it|this)\b/i.test(body)) return null;
    if (/^to\s/i.test(body)) {
      const action = cleanObject(body.slice(3));
      if (action === null) return null;
      return draft(
        [`${name} prefers to ${action}`, `${name} would rather ${action}`, `${name} likes to ${action}`],
        'preferences',
        0.8,
      );
    }
    const parts = body.split(COMPARATOR);
    const first = cleanObject(parts[0] ?? '');
    if (first === null) return null;
    const second = parts.length > 1 ? cleanObject(parts.slice(1).join(' ')) : null;
    const text = second === null ? `${name} prefers ${first}` : `${name} prefers ${first} over ${second}`;
    const alt =
      second === null
        ? `${name} has a preference for ${first}`
        : `${name} would pick ${first} over ${second}`;
    const entities: ProposedEntity[] = [];
    for (const o of [first, second]) {
      const e = o === null ? null : entityFor(o);
      if (e !== null) entities.push(e);
    }
    return {
      texts: [text, alt],
      category: 'preferences',
      confidence: 0.82,
      entities,
      verb: entities.length > 0 ? 'prefers' : null,
    };
  },
};

const FAVORITE_FIRST =
  /^my (?:all[- ]time |absolute |current |personal |new |top )?favorite ([a-z][\w-]*(?: [a-z][\w-]*){0,2}?)(?: of all time| ever| right now)? (?:is|are|has to be|will always be|remains) (.+)$/i;
const FAVORITE_LAST =
  /^(.+?) (?:is|are|has always been|will always be) (?:still )?my (?:all[- ]time |absolute |personal |top )?(?:favorite|number one|#1) ([a-z][\w-]*(?: [a-z][\w-]*){0,2})(?: of all time| ever)?$/i;

const favorite: Rule = {
  id: 'favorite',
  match(clause: Clause, { name }): Draft | null {
    const first = FAVORITE_FIRST.exec(clause.text);
    const last = first === null ? FAVORITE_LAST.exec(clause.text) : null;
    const kindRaw = first !== null ? first[1] : last?.[2];
    const valueRaw = first !== null ? first[2] : last?.[1];
    if (kindRaw === undefined || valueRaw === undefined) return null;
    const kind = cleanObject(kindRaw, { maxWords: 3 });
    const value = cleanObject(valueRaw, { maxWords: 6 });
    if (kind === null || value === null || /^(?:thing|part|one|person)$/i.test(kind)) return null;
    const texts = [
      `${capitalize(value)} is ${name}'s favorite ${kind}`,
      `${name}'s favorite ${kind} is ${value}`,
      `${name} names ${value} as their favorite ${kind}`,
    ];
    const entity = entityFor(value);
    return draft(texts, 'preferences', 0.86, entity, 'likes');
  },
};

const EVERYTHING_SAUCE =
  /^i (?:put|add|pour|use|eat|sprinkle|dump) (.+?) (?:on|in|with) (?:literally |basically |pretty much |almost )?(?:everything|all my food|all of my food|every meal|anything)\b/i;

const onEverything: Rule = {
  id: 'on-everything',
  match(clause: Clause, { name }): Draft | null {
    const m = EVERYTHING_SAUCE.exec(clause.text);
    const object = m === null ? null : cleanObject(m[1] ?? '', { maxWords: 4 });
    if (object === null) return null;
    const entity = entityFor(object);
    return draft(
      [
        `${name} loves ${object} and puts it on nearly all food`,
        `${name} loves ${object}`,
        fronted(object, `goes on almost everything ${name} eats`),
      ],
      'preferences',
      0.84,
      entity === null ? null : { name: entity.name, kind: 'product' },
      'loves',
    );
  },
};

const NO_GOING_BACK =
  /^i (?:(?:just|really|honestly|simply) )*(?:cannot|can never|will never) go back to (.+?) (?:after|since) (?:using|trying|getting|switching to|having) (?:my |a |the |an )?(?:(?:new|shiny|first) )?(.+)$/i;

const noGoingBack: Rule = {
  id: 'no-going-back',
  match(clause: Clause, { name }): Draft | null {
    const m = NO_GOING_BACK.exec(clause.text);
    if (m === null) return null;
    const old = cleanObject(m[1] ?? '', { maxWords: 4 });
    const rawNew = (m[2] ?? '').replace(/\s+ones?$/i, (one) => ` ${(old ?? '').split(' ').pop() ?? one}`);
    const chosen = cleanObject(rawNew, { maxWords: 4 });
    if (old === null || chosen === null) return null;
    const entity = entityFor(chosen);
    return draft(
      [`${name} prefers ${chosen} over ${old}`, `${name} would pick ${chosen} over ${old}`],
      'preferences',
      0.82,
      entity,
      'prefers',
    );
  },
};

/** Order matters: "my favorite" and "I prefer" before the generic verb rule. */
export const PREFERENCE_RULES: readonly Rule[] = [favorite, prefer, onEverything, noGoingBack, preference];
