/** Partners, family and friends, relationship status; and stated goals. */

import { KIN, PROFESSIONS } from '../../../text/word-lists.js';
import { cleanObject, flipPronouns, fronted, titleCase } from '../phrase-utils.js';
import { type Clause, type Draft, draft, type Rule } from '../rule-types.js';

const KIN_WORDS = [...KIN].sort((a, b) => b.length - a.length).join('|');
const STATUS =
  /^i am (?:(?:now|finally|officially|happily|still|recently|also|so) )*(getting married|engaged|married|single|divorced|widowed|in a relationship|seeing someone|getting divorced)(?: (?:to|with) (.+?))?(?: (next \w+|this \w+|in \w+|soon|tomorrow|on \w+(?: \d+\w*)?))?$/i;
const EVENT =
  /^i (?:(?:just|finally|recently|officially) )*(got married|got engaged|got divorced|broke up with (?:my )?(?:girlfriend|boyfriend|partner|wife|husband|fianc[eé]e?))$/i;
const DATING = /^i am (?:(?:now|currently|still|happily) )*dating (.+)$/i;
const HAVE_KIN = new RegExp(
  `^i have (an?|one|two|three|four|five|\\d) (?:(?:younger|older|little|big|baby|twin|step|half) )?(${KIN_WORDS}|kids|children|siblings|brothers|sisters|sons|daughters)(?: (?:named|called) ([a-z][\\w'-]*))?$`,
  'i',
);
const KIN_NAMED = new RegExp(`^my (${KIN_WORDS})(?:'s name is| is named| is called) ([a-z][\\w'-]*)$`, 'i');
const KIN_FACT = new RegExp(
  `^my (${KIN_WORDS}) (is an? [\\w -]+?|works (?:at|as|for|in) .+|lives in .+|is from .+|loves .+|likes .+|hates .+|plays .+|studies .+|is getting .+|just got .+|is allergic to .+)$`,
  'i',
);

const status: Rule = {
  id: 'relationship-status',
  temporalOk: true,
  match(c: Clause, { name }): Draft | null {
    const s = STATUS.exec(c.text);
    if (s !== null) {
      const state = (s[1] ?? '').toLowerCase();
      const partner = s[2] === undefined ? null : cleanObject(s[2], { maxWords: 3 });
      const tail = partner === null ? '' : ` ${state === 'in a relationship' ? 'with' : 'to'} ${partner}`;
      const when = s[3] === undefined ? '' : ` ${s[3].toLowerCase()}`;
      const texts = [
        `${name} is ${state}${tail}${when}`,
        `${name}'s relationship status: ${state}${tail}${when}`,
      ];
      if (state === 'getting married') texts.splice(1, 0, `${name} has a wedding coming up${when}`);
      return draft(texts, 'relationships', 0.85);
    }
    const e = EVENT.exec(c.text);
    if (e !== null)
      return draft([`${name} ${flipPronouns((e[1] ?? '').toLowerCase())}`], 'relationships', 0.85);
    const d = DATING.exec(c.text);
    if (d !== null) {
      const who = cleanObject(d[1] ?? '', { maxWords: 3 });
      if (who === null) return null;
      return draft(
        [`${name} is dating ${who}`, `${name} is in a relationship with ${who}`],
        'relationships',
        0.8,
      );
    }
    return null;
  },
};

const family: Rule = {
  id: 'family',
  match(c: Clause, { name }): Draft | null {
    const have = HAVE_KIN.exec(c.text);
    if (have !== null) {
      const count = (have[1] ?? '').toLowerCase();
      const kin = (have[2] ?? '').toLowerCase();
      const called = have[3] === undefined ? '' : ` named ${titleCase(have[3])}`;
      const person = have[3] === undefined ? null : { name: titleCase(have[3]), kind: 'person' as const };
      const alt =
        person === null
          ? `${name} is someone with ${count === 'one' ? 'a' : count} ${kin}`
          : `${person.name} is ${name}'s ${kin}`;
      return draft(
        [`${name} has ${count === 'one' ? 'a' : count} ${kin}${called}`, alt],
        'relationships',
        0.85,
        person,
        'knows',
      );
    }
    const named = KIN_NAMED.exec(c.text);
    if (named !== null) {
      const kin = (named[1] ?? '').toLowerCase();
      const n = titleCase(named[2] ?? '');
      const an = /^[aeiou]/.test(kin) ? 'an' : 'a';
      return draft(
        [`${name} has ${an} ${kin} named ${n}`, `${name}'s ${kin} is called ${n}`],
        'relationships',
        0.85,
        { name: n, kind: 'person' },
        'knows',
      );
    }
    const fact = KIN_FACT.exec(c.text);
    if (fact === null) return null;
    const kin = (fact[1] ?? '').toLowerCase();
    const predicate = cleanObject(fact[2] ?? '', { maxWords: 9 });
    if (predicate === null) return null;
    if (/^is an? /i.test(predicate)) {
      const noun = predicate.split(' ').pop()?.toLowerCase() ?? '';
      if (!PROFESSIONS.has(noun)) return null;
    }
    return draft(
      [`${name}'s ${kin} ${predicate}`, `${name} has a ${kin} who ${predicate}`],
      'relationships',
      0.78,
    );
  },
};

const GOAL =
  /^my (?:(?:main|big|biggest|current|life|new year's|long[- ]term) )?(?:goal|dream|plan|resolution|ambition) (?:is|this year is) to (.+)$/i;
const TRAINING =
  /^i am (?:(?:currently|now|still) )*(training for|saving up for|saving for|working toward|working towards) (.+)$/i;
const BECOME = /^i (?:want|hope|plan|am planning|am trying) to become (an? .+)$/i;

const goals: Rule = {
  id: 'goals',
  temporalOk: true,
  match(c: Clause, { name }): Draft | null {
    const g = GOAL.exec(c.text);
    if (g !== null) {
      const what = cleanObject(g[1] ?? '', { maxWords: 8 });
      return what === null
        ? null
        : draft([`${name}'s goal is to ${what}`, `${name} aims to ${what}`], 'goals', 0.78);
    }
    const t = TRAINING.exec(c.text);
    if (t !== null) {
      const what = cleanObject(t[2] ?? '', { maxWords: 6 });
      return what === null
        ? null
        : draft(
            [
              `${name} is ${(t[1] ?? '').toLowerCase()} ${what}`,
              fronted(what, `is what ${name} is ${(t[1] ?? '').toLowerCase()}`),
            ],
            'goals',
            0.76,
          );
    }
    const b = BECOME.exec(c.text);
    if (b === null) return null;
    const what = cleanObject(b[1] ?? '', { maxWords: 5 });
    return what === null
      ? null
      : draft([`${name} wants to become ${what}`, `${name} hopes to become ${what}`], 'goals', 0.72);
  },
};

export const RELATIONSHIP_RULES: readonly Rule[] = [status, family, goals];
