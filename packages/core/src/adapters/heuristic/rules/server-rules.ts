/**
 * Community facts (subject `server`): rules, scheduled events, recurring meetups and what the
 * server is about. They need an explicit marker ("rule", an event noun plus a time, "every
 * tuesday", "this server", "here"); "we love those" alone is not about the community.
 */

import { EVENT_NOUNS } from '../../../text/word-lists.js';
import { capitalize, cleanObject } from '../phrase-utils.js';
import { annotateRelativeDates } from '../relative-dates.js';
import { type Draft, draft } from '../rule-types.js';

const EVENT_WORDS = [...EVENT_NOUNS].sort((a, b) => b.length - a.length).join('|');
const WEEKDAY = '(?:mon|tues|wednes|thurs|fri|satur|sun)day';
const WHEN = new RegExp(
  `\\b(?:today|tonight|tomorrow|this|next|every|${WEEKDAY}s?|weekend|weekly|monthly|at \\d|\\d{1,2}(?::\\d{2})?\\s*(?:am|pm)|noon|midnight|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\.? \\d{1,2}|in (?:\\w+ )?(?:days?|weeks?|hours?))\\b`,
  'i',
);

const RULE =
  /^(?:(?:the|a|our|new|server|house|channel|important|quick) )*rules?(?: ?#?\d+)?\s*(?::|-|is that|is|=)\s*(.+)$/i;
const NOT_ALLOWED =
  /^(?:you are|we are|members are|people are|nobody is|no one is|everyone is) not allowed to (.+?)(?: (?:here|in this server|on this server|in here))?$/i;
const NO_X_HERE =
  /^(?:please |pls )?no (.+?) (?:allowed )?(?:in|on) (?:this server|this discord|here|#[\w-]+|general|the server)$/i;

const EVENT = new RegExp(
  `^(?:(?:the|our|this week's|next week's|next|the next|this|upcoming|weekly|monthly|community|server) )*((?:[\\w'-]+ ){0,2}?(?:${EVENT_WORDS}))s? (is|are|will be|starts|start|begins|begin|kicks off|happens|is happening|ends|got moved to|is moved to|has been moved to|is scheduled for|goes live) (.+)$`,
  'i',
);
const RECURRING =
  /^(?:here |in this server |on this server )?we (?:(?:usually|always|all|normally|typically) )*(meet|play|stream|hang out|watch|gather|hop on|get together|do|have|host|run|hold) (.*?)\b(every (?:other )?\w+(?: (?:night|morning|evening|afternoon))?(?: at [\w:]+(?: ?[ap]m)?)?|on (?:mon|tues|wednes|thurs|fri|satur|sun)days(?: at [\w:]+)?|weekly|monthly)$/i;
const ABOUT =
  /^(?:this|the|our) (?:server|community|discord|guild|group) is (?:(?:all|mostly|basically|just|primarily|mainly) )*(?:about|for) (.+)$/i;
const EVERYONE_HERE =
  /^(?:everyone|everybody|we all|all of us|we) (?:here|in this server|on this server|around here|in this community) (love|loves|like|likes|enjoy|enjoys|hate|hates|play|plays|is into|are into) (.+)$/i;

const withoutTrailingPunctuation = (s: string): string => s.replace(/[\s.!]+$/, '');

/** A server fact for one sentence, or null. */
export function matchServerFact(sentence: string, batchDate: string): Draft | null {
  const rule = RULE.exec(sentence) ?? NO_X_HERE.exec(sentence);
  if (rule !== null) {
    const body = cleanObject(rule[1] ?? '', { maxWords: 12 });
    if (body === null) return null;
    const text = RULE.test(sentence) ? `The server has a rule: ${body}` : `The server does not allow ${body}`;
    return draft([text, `Server members must follow this rule: ${body}`], 'rules', 0.86);
  }
  const banned = NOT_ALLOWED.exec(sentence);
  if (banned !== null) {
    const body = cleanObject(banned[1] ?? '', { maxWords: 10 });
    if (body === null) return null;
    return draft([`Members of the server are not allowed to ${body}`], 'rules', 0.84);
  }
  const event = EVENT.exec(sentence);
  if (event !== null && WHEN.test(event[3] ?? '')) {
    const what = (event[1] ?? '').toLowerCase();
    if (/^(?:my|your|his|her|their) /.test(what)) return null;
    const verb = (event[2] ?? '').toLowerCase();
    const when = withoutTrailingPunctuation(annotateRelativeDates(event[3] ?? '', batchDate));
    if (/\b(?:you|your|i|my)\b/i.test(when) || when.split(' ').length > 12) return null;
    const shownVerb =
      verb === 'start' ? 'starts' : verb === 'begin' ? 'begins' : verb === 'are' ? 'is' : verb;
    return draft(
      [
        `The server's ${what} ${shownVerb} ${when}`,
        `The server community has ${/^[aeiou]/.test(what) ? 'an' : 'a'} ${what} that ${shownVerb} ${when}`,
      ],
      'events',
      0.8,
      { name: what, kind: 'event' },
      null,
    );
  }
  const recurring = RECURRING.exec(sentence);
  if (recurring !== null) {
    const verb = (recurring[1] ?? '').toLowerCase();
    const what = withoutTrailingPunctuation(recurring[2] ?? '').trim();
    if (/\b(?:you|your|i|my)\b/i.test(what)) return null;
    const when = capitalizeDays((recurring[3] ?? '').toLowerCase());
    const verbs: Readonly<Record<string, string>> = {
      meet: 'meets',
      play: 'plays',
      stream: 'streams',
      watch: 'watches',
      gather: 'gathers',
      do: 'does',
      have: 'has',
      host: 'hosts',
      run: 'runs',
      hold: 'holds',
    };
    const shown = verbs[verb] ?? `${verb.replace(/^(\w+)/, '$1s')}`;
    const object = what.length === 0 ? '' : ` ${what}`;
    return draft([`The server community ${shown}${object} ${when}`], 'culture', 0.82);
  }
  const about = ABOUT.exec(sentence);
  if (about !== null) {
    const topic = cleanObject(about[1] ?? '', { maxWords: 8 });
    if (topic === null) return null;
    return draft(
      [`The server is a community about ${topic}`, `The server community centers on ${topic}`],
      'culture',
      0.84,
      null,
    );
  }
  const everyone = EVERYONE_HERE.exec(sentence);
  if (everyone !== null) {
    const object = cleanObject(everyone[2] ?? '', { maxWords: 6 });
    if (object === null) return null;
    const verb = (everyone[1] ?? '')
      .toLowerCase()
      .replace(/^(love|like|enjoy|hate|play)$/, '$1s')
      .replace(/^are into$/, 'is into');
    return draft(
      [`The server community ${verb} ${object}`, `Members of the server ${verb.replace(/s$/, '')} ${object}`],
      'culture',
      0.8,
    );
  }
  return null;
}

function capitalizeDays(text: string): string {
  return text.replace(/\b(mon|tues|wednes|thurs|fri|satur|sun)day/g, (d) => capitalize(d));
}
