/** Where someone lives, moved to, is moving to, or comes from. */
import { cleanObject, entityName, fronted, isGeneric, titleCase } from '../phrase-utils.js';
import { type Clause, type Draft, draft, type Rule } from '../rule-types.js';
import { NOW } from './rule-patterns.js';

const PLACE_TAIL =
  /\s+(?:now|these days|at the moment|for (?:now|a while|\d+|a|an|over|about|almost|like|the past|the last) .*|since .*|with .*|near .*|and .*|right now|atm|rn|lol|haha\w*)$/i;
const NOT_A_PLACE =
  /^(?:here|there|a house|an apartment|a flat|a dorm|a van|the same|the area|the middle of nowhere|hell|pain|the future|the past|space|the moon|mars|another planet|another dimension|everywhere|nowhere|all over|around|the internet|the moment|denial|fear|the shadows|a simulation)$/i;

function place(raw: string): string | null {
  const object = cleanObject(raw.replace(PLACE_TAIL, ''), { maxWords: 5 });
  if (object === null || NOT_A_PLACE.test(object) || /^(?:to|with|by|their|his|her)\b/i.test(object))
    return null;
  if (isGeneric(object)) return object;
  return titleCase(object);
}

function placeEntity(p: string) {
  const name = entityName(p);
  return name === null || isGeneric(p) ? null : ({ name, kind: 'place' } as const);
}

const LIVE = new RegExp(
  `^i ${NOW}(?:live|reside|am living|am based|have lived|have been living) (?:in|on|near) (.+)$`,
  'i',
);
const FROM = /^i am (?:originally |actually |born and raised |also )?from (.+)$/i;
const MOVED = new RegExp(`^i ${NOW}(?:have )?(?:moved|relocated) (?:back |over |out )?to (.+)$`, 'i');
const MOVING =
  /^i am (?:(?:finally|officially|actually) )?(?:moving|relocating) (?:back |over |out )?to (.+)$/i;
const HOMETOWN = /^my (?:home ?town|home city|city) is (.+)$/i;

const residence: Rule = {
  id: 'residence',
  match(c: Clause, { name }): Draft | null {
    const live = LIVE.exec(c.text) ?? HOMETOWN.exec(c.text);
    if (live !== null) {
      const p = place(live[1] ?? '');
      if (p === null) return null;
      return draft(
        [`${name} lives in ${p}`, `${name} is based in ${p}`, fronted(p, `is where ${name} lives`)],
        'personal',
        0.88,
        placeEntity(p),
        'lives_in',
      );
    }
    const moved = MOVED.exec(c.text);
    if (moved !== null) {
      const p = place(moved[1] ?? '');
      if (p === null) return null;
      return draft(
        [
          `${name} moved to ${p}`,
          `${name} has moved to ${p}`,
          `${name} relocated to ${p}`,
          fronted(p, `is where ${name} moved`),
        ],
        'personal',
        0.88,
        placeEntity(p),
        'lives_in',
      );
    }
    const from = FROM.exec(c.text);
    if (from !== null) {
      const p = place(from[1] ?? '');
      if (p === null) return null;
      return draft(
        [`${name} is from ${p}`, `${name} comes from ${p}`, fronted(p, `is where ${name} comes from`)],
        'personal',
        0.86,
        placeEntity(p),
        'from',
      );
    }
    return null;
  },
};

const moving: Rule = {
  id: 'moving',
  temporalOk: true,
  match(c: Clause, { name }): Draft | null {
    const m = MOVING.exec(c.text);
    if (m === null) return null;
    const when =
      /\b(?:tomorrow|next \w+|this \w+|in \w+ (?:days|weeks|months)|soon|in (?:january|february|march|april|may|june|july|august|september|october|november|december))\b/i.exec(
        m[1] ?? '',
      );
    const p = place((m[1] ?? '').replace(/\s+(?:tomorrow|next \w+|this \w+|in .+|soon)$/i, ''));
    if (p === null) return null;
    const suffix = when === null ? '' : ` ${when[0].toLowerCase()}`;
    return draft([`${name} is moving to ${p}${suffix}`], 'personal', 0.76, placeEntity(p), null);
  },
};

export const PLACE_RULES: readonly Rule[] = [residence, moving];
