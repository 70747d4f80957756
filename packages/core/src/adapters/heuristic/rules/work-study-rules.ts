/** Where someone works and what they do, where and what they study. */

import { PROFESSIONS, SCHOOL_WORD } from '../../../text/word-lists.js';
import { cleanObject, entityName, fronted, isGeneric, titleCase } from '../phrase-utils.js';
import { type Clause, type Draft, draft, type Rule } from '../rule-types.js';
import { NOW } from './rule-patterns.js';

function org(raw: string): string | null {
  const object = cleanObject(raw, { maxWords: 6, indefiniteThis: true });
  if (object === null || /^(?:home|the moment|night|nights|weekends|all|it|to|on|from)\b/i.test(object))
    return null;
  return isGeneric(object) ? object : titleCase(object);
}

function orgEntity(o: string) {
  const name = entityName(o);
  return name === null || isGeneric(o) ? null : ({ name, kind: 'org' } as const);
}

const WORK_AT = new RegExp(
  `^i ${NOW}(?:work|am working|have worked|have been working) (at|for|in) (.+?)(?: as (?:an? )?(.+))?$`,
  'i',
);
const WORK_AS = new RegExp(`^i ${NOW}(?:work|am working) as (?:an? )?(.+?)(?: (at|for|in) (.+))?$`, 'i');
const STARTED = new RegExp(
  `^i ${NOW}(?:started (?:a new job|working|my new job) at|got (?:a|my first|a new) job (?:at|with)|got hired (?:at|by)|joined) (.+)$`,
  'i',
);
const PROMOTED = new RegExp(`^i ${NOW}got promoted (?:to (?:an? )?(.+?))?(?: (?:at|in) (.+))?$`, 'i');
const I_AM_A = /^i am (?:an? )((?:[\w-]+ ){0,3}?[\w-]+?)(?: (at|for|in) (.+))?$/i;
const STATUS =
  /^i am (?:now |currently |finally |officially )?(retired|unemployed|self-employed|between jobs)$/i;

function profession(phrase: string): string | null {
  const cleaned = cleanObject(phrase, { maxWords: 4 });
  if (cleaned === null) return null;
  const words = cleaned.toLowerCase().split(' ');
  const last = words[words.length - 1] ?? '';
  const lastTwo = words.slice(-2).join(' ');
  return PROFESSIONS.has(last) || PROFESSIONS.has(lastTwo) ? cleaned : null;
}

const article = (noun: string): string => (/^[aeiou]/i.test(noun) ? `an ${noun}` : `a ${noun}`);

function jobDraft(name: string, title: string | null, prep: string, orgRaw: string | null): Draft | null {
  const o = orgRaw === null ? null : org(orgRaw);
  if (orgRaw !== null && o === null) return null;
  if (title === null && o === null) return null;
  if (o !== null && prep.toLowerCase() === 'in') {
    const field = title === null ? `${name} works in ${o}` : `${name} works as ${article(title)} in ${o}`;
    return draft([field], 'professional', 0.82, { name: o, kind: 'concept' }, null);
  }
  const verbPrep = prep.toLowerCase() === 'for' ? 'for' : 'at';
  const texts =
    title === null
      ? [
          `${name} works ${verbPrep} ${o}`,
          `${name} is employed ${verbPrep === 'for' ? 'by' : 'at'} ${o}`,
          fronted(o ?? '', `is where ${name} works`),
        ]
      : o === null
        ? [
            `${name} works as ${article(title)}`,
            `${name} has a job as ${article(title)}`,
            `By profession ${name} is ${article(title)}`,
          ]
        : [
            `${name} works ${verbPrep} ${o} as ${article(title)}`,
            `${name} is ${article(title)} at ${o}`,
            fronted(o ?? '', `employs ${name} as ${article(title)}`),
          ];
  return draft(
    texts,
    'professional',
    title === null ? 0.86 : 0.85,
    o === null ? null : orgEntity(o),
    'works_at',
  );
}

const job: Rule = {
  id: 'job',
  match(c: Clause, { name }): Draft | null {
    const at = WORK_AT.exec(c.text);
    if (at !== null) {
      const title = at[3] === undefined ? null : cleanObject(at[3], { maxWords: 4 });
      return jobDraft(name, title, at[1] ?? 'at', at[2] ?? '');
    }
    const as = WORK_AS.exec(c.text);
    if (as !== null) {
      const title = cleanObject(as[1] ?? '', { maxWords: 4 });
      if (title === null) return null;
      return jobDraft(name, title, as[2] ?? 'at', as[3] ?? null);
    }
    const started = STARTED.exec(c.text);
    if (started !== null) {
      const o = org(started[1] ?? '');
      if (o === null) return null;
      return draft(
        [
          `${name} started working at ${o}`,
          `${name} has a new job at ${o}`,
          fronted(o, `is where ${name} started working`),
        ],
        'professional',
        0.84,
        orgEntity(o),
        'works_at',
      );
    }
    const promoted = PROMOTED.exec(c.text);
    if (promoted !== null) {
      const title = promoted[1] === undefined ? null : cleanObject(promoted[1], { maxWords: 4 });
      const o = promoted[2] === undefined ? null : org(promoted[2]);
      const tail = `${title === null ? '' : ` to ${title}`}${o === null ? '' : ` at ${o}`}`;
      return draft(
        [`${name} was promoted${tail}`, `${name} earned a promotion${tail}`],
        'professional',
        0.84,
        o === null ? null : orgEntity(o),
        'works_at',
      );
    }
    const status = STATUS.exec(c.text);
    if (status !== null)
      return draft([`${name} is ${(status[1] ?? '').toLowerCase()}`], 'professional', 0.82);
    const iam = I_AM_A.exec(c.text);
    if (iam !== null) {
      const title = profession(iam[1] ?? '');
      if (title === null || /student/i.test(title)) return null;
      return jobDraft(name, title, iam[2] ?? 'at', iam[3] ?? null);
    }
    return null;
  },
};

const STUDY = new RegExp(
  `^i ${NOW}(?:study|am studying|major in|am majoring in|am doing a (?:degree|masters|phd|bachelors) in) (.+?)(?: (?:at|in) (.+))?$`,
  'i',
);
const STUDY_AT = new RegExp(`^i ${NOW}(?:study|am studying) at (.+)$`, 'i');
const ATTEND = new RegExp(`^i ${NOW}(?:go to|attend|am attending|am enrolled (?:at|in)) (.+)$`, 'i');
const STUDENT =
  /^i am (?:an? )?(?:(?:first|second|third|fourth|final)[- ]year )?(?:college |university |uni |grad |graduate |phd |high school |med |law |cs |undergrad )?(?:student|freshman|sophomore|junior|senior|undergrad|grad student|phd student|phd candidate) (?:at|in) (.+)$/i;
const GRADUATED = new RegExp(`^i ${NOW}graduated (?:from )?(.+)$`, 'i');

function school(raw: string): string | null {
  const o = cleanObject(raw, { maxWords: 6, indefiniteThis: true });
  if (o === null) return null;
  if (isGeneric(o)) return o;
  if (/^[a-z]{2,4}$/.test(o) && !/^(?:uni|home|work)$/.test(o)) return o.toUpperCase();
  return titleCase(o).replace(/\bUni\b/, 'university');
}

const study: Rule = {
  id: 'study',
  match(c: Clause, { name }): Draft | null {
    const at = STUDY_AT.exec(c.text) ?? STUDENT.exec(c.text);
    if (at !== null) {
      const s = school(at[1] ?? '');
      if (s === null) return null;
      return draft(
        [`${name} studies at ${s}`, `${name} is a student at ${s}`, fronted(s, `is where ${name} studies`)],
        'professional',
        0.85,
        orgEntity(s),
        'studies',
      );
    }
    const st = STUDY.exec(c.text);
    if (st !== null) {
      if (/^(?:for|hard|all|late|with|tonight|today)\b/i.test(st[1] ?? '')) return null;
      const subject = cleanObject(st[1] ?? '', { maxWords: 4 });
      const s = st[2] === undefined ? null : school(st[2]);
      if (subject === null || (st[2] !== undefined && s === null)) return null;
      const texts =
        s === null
          ? [
              `${name} studies ${subject}`,
              `${name} is a student of ${subject}`,
              fronted(subject, `is what ${name} studies`),
            ]
          : [
              `${name} studies ${subject} at ${s}`,
              `${name} is studying ${subject} at ${s}`,
              fronted(s, `is where ${name} studies ${subject}`),
            ];
      return draft(
        texts,
        'professional',
        0.85,
        s === null ? { name: subject, kind: 'concept' } : orgEntity(s),
        'studies',
      );
    }
    const attend = ATTEND.exec(c.text);
    if (
      attend !== null &&
      SCHOOL_WORD.test(attend[1] ?? '') &&
      !/\b(?:gym|church|bed|work|sleep)\b/i.test(attend[1] ?? '')
    ) {
      const s = school(attend[1] ?? '');
      if (s === null) return null;
      return draft(
        [`${name} attends ${s}`, `${name} is a student at ${s}`, fronted(s, `is where ${name} studies`)],
        'professional',
        0.84,
        orgEntity(s),
        'studies',
      );
    }
    const grad = GRADUATED.exec(c.text);
    if (grad !== null) {
      const s = school(grad[1] ?? '');
      if (s === null || /^(?:today|yesterday|last|this)\b/i.test(s)) return null;
      return draft(
        [`${name} graduated from ${s}`, `${name} is a graduate of ${s}`],
        'professional',
        0.84,
        orgEntity(s),
        null,
      );
    }
    return null;
  },
};

export const WORK_STUDY_RULES: readonly Rule[] = [job, study];
