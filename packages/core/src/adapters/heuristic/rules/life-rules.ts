/** Learning, pets, habits given up, games and instruments, long-running activities. */

import { INSTRUMENTS, PETS, SPORTS } from '../../../text/word-lists.js';
import {
  capitalize,
  cleanObject,
  entityName,
  flipPronouns,
  fronted,
  gerund,
  guessKind,
  isGeneric,
  predicateThirdPerson,
  titleCase,
} from '../phrase-utils.js';
import { type Clause, type Draft, draft, type Rule } from '../rule-types.js';

const LEARNING =
  /^i am (?:(?:currently|still|slowly|finally|now|also|actually|trying to keep) )*(?:learning|teaching myself|trying to learn|getting into|practicing|practising) (how to )?(.+)$/i;
const LEARN_START =
  /^i (?:just |recently )?(?:started|began) (?:learning|to learn|studying|practicing|practising) (how to )?(.+)$/i;

const learning: Rule = {
  id: 'learning',
  match(c: Clause, { name }): Draft | null {
    const m = LEARNING.exec(c.text) ?? LEARN_START.exec(c.text);
    if (m === null) return null;
    const object = cleanObject(m[2] ?? '', { maxWords: 6 });
    if (object === null || /^(?:a lot|so much|to\b|that|from)\b/i.test(object)) return null;
    const howTo = m[1] !== undefined;
    const thing = howTo ? `how to ${object}` : object;
    const e = howTo ? null : entityName(object);
    return draft(
      [
        `${name} is learning ${thing}`,
        `${name} is currently studying ${thing}`,
        fronted(thing, `is something ${name} is learning`),
      ],
      'interests',
      0.8,
      e === null ? null : { name: e, kind: guessKind(e) },
      'studies',
    );
  },
};

const PET_WORDS = [...PETS].sort((a, b) => b.length - a.length).join('|');
const NUMBER = '(?:an?|one|two|three|four|five|six|\\d)';
const HAVE_PET = new RegExp(
  `^i (?:have|own|got|adopted|just got|just adopted|have got) (${NUMBER}) (?:(?:little|big|old|new|baby|rescue|tiny|fat|cute) )?((?:[a-z-]+ )?(?:${PET_WORDS}))(?:s|es)?(?: (?:named|called) ([a-z][\\w'-]*))?(?: and .*| too| as well| at home)?$`,
  'i',
);
const MY_PET = new RegExp(
  `^my (?:(?:little|old|new|baby|rescue) )?((?:[a-z-]+ )?(?:${PET_WORDS}))(?:'s name is| is named| is called| named| called) ([a-z][\\w'-]*)$`,
  'i',
);

const pet: Rule = {
  id: 'pet',
  match(c: Clause, { name }): Draft | null {
    const mine = MY_PET.exec(c.text);
    const have = mine === null ? HAVE_PET.exec(c.text) : null;
    if (mine === null && have === null) return null;
    const species = (mine?.[1] ?? have?.[2] ?? '').toLowerCase();
    const petName = mine?.[2] ?? have?.[3];
    const count = (have?.[1] ?? 'a').toLowerCase();
    if (!PETS.has(species.split(' ').pop() ?? '') && !PETS.has(species)) return null;
    if (petName !== undefined) {
      const n = titleCase(petName);
      const an = /^[aeiou]/.test(species) ? 'an' : 'a';
      return draft(
        [`${name} has ${an} ${species} named ${n}`, `${name}'s ${species} is called ${n}`],
        'personal',
        0.87,
        { name: n, kind: 'concept' },
        'owns',
      );
    }
    const plural =
      count === 'a' || count === 'an' || count === 'one'
        ? ''
        : species.endsWith('s') || species.endsWith('sh')
          ? 'es'
          : 's';
    const prefix = count === 'one' ? 'a' : count;
    return draft(
      [`${name} has ${prefix} ${species}${plural}`, `${name} owns ${prefix} ${species}${plural}`],
      'personal',
      0.84,
      { name: species, kind: 'concept' },
      'owns',
    );
  },
};

const QUIT =
  /^i (?:(?:finally|just|recently|officially|completely|basically) )*(quit|stopped|gave up|have quit|have given up|have stopped|kicked|dropped) (.+)$/i;

const quit: Rule = {
  id: 'quit',
  match(c: Clause, { name }): Draft | null {
    const m = QUIT.exec(c.text);
    if (m === null) return null;
    const raw = m[2] ?? '';
    if (
      /^(?:by|at|in|to|for|on|off|out|and|being able|caring|trying|it|that|this|there|after|before|because|responding)\b/i.test(
        raw,
      )
    )
      return null;
    const object = cleanObject(
      raw.replace(
        /\s+(?:last \w+|a (?:while|year|month|week) ago|\w+ (?:years?|months?|weeks?) ago|cold turkey|for good|for lent)$/i,
        '',
      ),
      { maxWords: 5 },
    );
    if (object === null) return null;
    const said = (m[1] ?? '')
      .toLowerCase()
      .replace(/^have (?:given )?/, '')
      .replace('given up', 'gave up')
      .replace(/^have /, '');
    const verb = said === 'quit' || said === 'kicked' || said === 'dropped' ? 'quit' : said;
    const isJob = /\b(?:job|work|position|role)\b/i.test(object);
    const e = isJob || isGeneric(object) ? null : entityName(object);
    return draft(
      [
        `${name} ${verb} ${object}`,
        `${name} has given up ${object}`,
        fronted(object, `is something ${name} gave up`),
      ],
      isJob ? 'professional' : 'personal',
      0.82,
      e === null ? null : { name: e, kind: guessKind(e) },
      'quit',
    );
  },
};

const NO_LONGER = /^i (?:no longer|do not|am not|have not|never) (.+?)(?: (?:anymore|any more|any longer))$/i;
const NO_LONGER_PLAIN = /^i no longer (.+)$/i;

const noLonger: Rule = {
  id: 'no-longer',
  match(c: Clause, { name }): Draft | null {
    const m = NO_LONGER.exec(c.text);
    const plain = m === null ? NO_LONGER_PLAIN.exec(c.text) : null;
    const raw = m?.[1] ?? plain?.[1];
    if (raw === undefined) return null;
    const lead = /^i (am not|have not)/i.exec(c.text)?.[1]?.toLowerCase();
    const predicate = cleanObject(raw, { maxWords: 6 });
    if (predicate === null || /^(?:know|care|remember|understand|think|get it|want)\b/i.test(predicate))
      return null;
    const phrase =
      lead === 'am not'
        ? `is no longer ${predicate}`
        : lead === 'have not'
          ? `no longer has ${predicate}`
          : `no longer ${predicateThirdPerson(flipPronouns(predicate))}`;
    const category = /^(?:work|live)/i.test(predicate) ? 'personal' : 'preferences';
    const [verb = '', ...rest] = flipPronouns(predicate).split(' ');
    const stopped =
      lead === 'am not'
        ? `${name} has stopped being ${predicate}`
        : lead === 'have not'
          ? `${name} has given up ${predicate}`
          : `${name} has stopped ${[gerund(verb), ...rest].join(' ')}`;
    const activity = lead === undefined ? [gerund(verb), ...rest].join(' ') : predicate;
    return draft(
      [`${name} ${phrase}`, stopped, fronted(activity, `is something ${name} gave up`)],
      category,
      0.8,
    );
  },
};

const PLAY =
  /^i (?:(?:also|mostly|mainly|usually|often|sometimes|regularly|still|actually|casually|competitively|really) )*play (.+)$/i;

const plays: Rule = {
  id: 'plays',
  match(c: Clause, { name }): Draft | null {
    const m = PLAY.exec(c.text);
    if (m === null) return null;
    const raw = (m[1] ?? '').replace(
      /\s+(?:a lot|every \w+|on (?:weekends|the weekends|pc|ps5|xbox|switch)|with (?:friends|my \w+)|competitively|casually|for fun)$/i,
      '',
    );
    if (
      /^(?:with|it|along|around|outside|dead|nice|fair|safe|games with|on|for|in|at|by|the fool|hard to get|hooky)\b/i.test(
        raw,
      )
    )
      return null;
    const object = cleanObject(raw, { maxWords: 5 });
    if (object === null) return null;
    const lower = object.toLowerCase();
    const kind = INSTRUMENTS.has(lower) || SPORTS.has(lower) ? 'activity' : 'product';
    const e = entityName(object);
    return draft(
      [
        `${name} plays ${object}`,
        `${name} regularly plays ${object}`,
        fronted(object, `is something ${name} plays`),
      ],
      'interests',
      0.8,
      e === null ? null : { name: e, kind },
      'plays',
    );
  },
};

const SPAN =
  '(?:for (?:over |almost |about |nearly |like |around |roughly )?(?:\\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|fifteen|twenty|a few|several|many|a couple of|a couple) (?:years?|months?|decades?)|since (?:(?:19|20)\\d\\d|i was (?:a kid|a child|little|young|\\d+)|childhood|high school|middle school|college|forever))';
const DURATION = new RegExp(
  `^i have (?:been )?([a-z]+(?:ing|ed)|known|done|had|made|drawn|run|ridden|sung|written) (.+?) (${SPAN})$`,
  'i',
);
const DURATION_BARE = new RegExp(`^i have been (?:a |an )?([a-z]+(?:ing)?|[a-z]+ [a-z]+) (${SPAN})$`, 'i');

const duration: Rule = {
  id: 'duration',
  match(c: Clause, { name }): Draft | null {
    const m = DURATION.exec(c.text);
    if (m !== null) {
      const verb = (m[1] ?? '').toLowerCase();
      const object = cleanObject(m[2] ?? '', { maxWords: 5 });
      if (object === null || /^(?:waiting|trying|looking|sitting|here|stuck|sick|tired|gone)$/.test(verb))
        return null;
      const been = /ing$/.test(verb) ? 'has been ' : 'has ';
      const span = (m[3] ?? '').toLowerCase();
      const e = entityName(object);
      const playing = /^play/.test(verb);
      return draft(
        [`${name} ${been}${verb} ${object} ${span}`, `${capitalize(span)}, ${name} ${been}${verb} ${object}`],
        'experiences',
        0.82,
        playing && e !== null ? { name: e, kind: guessKind(e) } : null,
        playing ? 'plays' : null,
      );
    }
    const bare = DURATION_BARE.exec(c.text);
    if (bare === null) return null;
    const what = (bare[1] ?? '').toLowerCase();
    if (
      /^(?:waiting|trying|looking|sitting|here|stuck|sick|tired|gone|awake|up|busy|online|away)$/.test(what)
    )
      return null;
    const being = `${/ing$/.test(what) ? '' : 'a '}${what}`;
    const since = (bare[2] ?? '').toLowerCase();
    return draft(
      [`${name} has been ${being} ${since}`, `${capitalize(since)}, ${name} has been ${being}`],
      'experiences',
      0.8,
    );
  },
};

export const LIFE_RULES: readonly Rule[] = [learning, pet, quit, noLonger, duration, plays];
