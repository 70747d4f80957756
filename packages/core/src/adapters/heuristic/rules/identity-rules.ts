/** Names, pronouns, birthdays, allergies and diets. */
import { findSelfNamings } from '../../../text/self-naming.js';
import { cleanObject, entityName, fronted, titleCase } from '../phrase-utils.js';
import { birthdayPhrase } from '../relative-dates.js';
import { type Clause, type Draft, draft, type Rule } from '../rule-types.js';

const name: Rule = {
  id: 'name',
  match(c: Clause, { name: who }): Draft | null {
    const [stated] = findSelfNamings(c.text, { anchored: true });
    if (stated === undefined) return null;
    const n = titleCase(stated.name);
    if (stated.kind === 'name')
      return draft(
        [`${who}'s name is ${n}`, `${who} is named ${n}`, `${n} is the name of ${who}`],
        'personal',
        0.9,
      );
    return draft(
      [
        `${who} prefers to be called ${n}`,
        `${who} goes by the name ${n}`,
        `${n} is what ${who} likes to be called`,
      ],
      'personal',
      0.86,
    );
  },
};

const PRONOUN_SET =
  /\b((?:she|he|they|it|xe|ze|fae|any)(?:\s*\/\s*(?:her|him|them|its?|xem|zir|faer|hers|his|theirs|they|she|he|all))+|any pronouns)\b/i;

const pronouns: Rule = {
  id: 'pronouns',
  match(c: Clause, { name: who }): Draft | null {
    if (!/^(?:my pronouns are|i use|i go by|pronouns)\b/i.test(c.text)) return null;
    const m = PRONOUN_SET.exec(c.text);
    if (m === null) return null;
    const value = (m[1] ?? '').replace(/\s+/g, '').toLowerCase();
    const text = value === 'anypronouns' ? `${who} accepts any pronouns` : `${who} uses ${value} pronouns`;
    return draft([text, `${who}'s pronouns are ${value}`], 'personal', 0.9);
  },
};

const BIRTHDAY = /^my birthday (?:is|falls on|was|will be) (?:on |in )?(.+)$/i;
const BORN = /^i was born (on|in) (.+)$/i;

const birthday: Rule = {
  id: 'birthday',
  temporalOk: true,
  match(c: Clause, { name: who, batchDate }): Draft | null {
    const m = BIRTHDAY.exec(c.text);
    if (m !== null) {
      const phrase = birthdayPhrase(m[1] ?? '', batchDate);
      if (phrase === null) return null;
      return draft(
        [`${who}'s birthday is ${phrase}`, `${who} celebrates their birthday ${phrase}`],
        'personal',
        0.88,
      );
    }
    const born = BORN.exec(c.text);
    if (born === null) return null;
    const when = born[2] ?? '';
    if (/^(?:19|20)\d\d$/.test(when.trim()))
      return draft(
        [`${who} was born in ${when.trim()}`, `${who}'s birth year is ${when.trim()}`],
        'personal',
        0.86,
      );
    const phrase = birthdayPhrase(when, batchDate);
    if (phrase !== null)
      return draft([`${who} was born ${phrase}`, `${who}'s birthday is ${phrase}`], 'personal', 0.86);
    const p = cleanObject(when, { maxWords: 4 });
    if (p === null || born[1]?.toLowerCase() !== 'in') return null;
    const where = titleCase(p);
    return draft(
      [`${who} was born in ${where}`, `${where} is where ${who} was born`],
      'personal',
      0.86,
      { name: where, kind: 'place' },
      'from',
    );
  },
};

const ALLERGIC =
  /^i am (?:(?:very|really|super|deathly|severely|mildly|slightly|extremely|highly|a bit|a little|so|also) )*allergic to (.+)$/i;
const ALLERGY = /^i have an? (?:(?:severe|bad|mild|serious) )?(.+?) allergy$/i;
const INTOLERANT = /^i am (?:(?:very|really|super|severely|mildly|also) )*(lactose|gluten) intolerant$/i;

const allergy: Rule = {
  id: 'allergy',
  match(c: Clause, { name: who }): Draft | null {
    const intolerant = INTOLERANT.exec(c.text);
    if (intolerant !== null)
      return draft([`${who} is ${(intolerant[1] ?? '').toLowerCase()} intolerant`], 'personal', 0.88);
    const m = ALLERGIC.exec(c.text) ?? ALLERGY.exec(c.text);
    const object = m === null ? null : cleanObject(m[1] ?? '', { maxWords: 4 });
    if (object === null) return null;
    const e = entityName(object);
    return draft(
      [
        `${who} is allergic to ${object}`,
        `${who} has an allergy to ${object}`,
        fronted(object, `trigger an allergic reaction in ${who}`),
      ],
      'personal',
      0.9,
      e === null ? null : { name: e, kind: 'concept' },
      'allergic_to',
    );
  },
};

const DIET =
  /^i am (?:(?:now|also|fully|strictly|mostly|a) )*(vegan|vegetarian|pescatarian|pescetarian|plant[- ]based|kosher|halal|celiac|coeliac|diabetic|sober|straight edge)$/i;
const NO_EAT =
  /^i (?:do not|never|cannot) (?:eat|drink) (meat|pork|beef|red meat|fish|dairy|gluten|alcohol|eggs|sugar|seafood|shellfish)(?: at all| ever)?$/i;

const diet: Rule = {
  id: 'diet',
  match(c: Clause, { name: who }): Draft | null {
    const m = DIET.exec(c.text);
    if (m !== null)
      return draft(
        [
          `${who} is ${(m[1] ?? '').toLowerCase()}`,
          `${who} follows a ${(m[1] ?? '').toLowerCase()} lifestyle`,
        ],
        'personal',
        0.86,
      );
    const no = NO_EAT.exec(c.text);
    if (no === null) return null;
    const what = (no[1] ?? '').toLowerCase();
    const verb = /alcohol/.test(what) ? 'drink' : 'eat';
    return draft(
      [`${who} does not ${verb} ${what}`, `${who} avoids ${what}`],
      'personal',
      0.84,
      { name: what, kind: 'concept' },
      'avoids',
    );
  },
};

export const IDENTITY_RULES: readonly Rule[] = [pronouns, name, birthday, allergy, diet];
