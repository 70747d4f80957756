/**
 * Who a clause is about. "i …"/"my …" → the author. "@bob loves hiking", "bob's dog is named
 * rex", "you are a nurse" (with one mentioned or replied-to member) → that member, rewritten to
 * first person ("i love hiking") so the self rules can run on it. A vocative ("@bob i love
 * hiking") stays about the author. Reported speech ("bob says …") is about nobody.
 */
import type { RosterEntry } from '../../../extraction/extraction-contract.js';
import { baseForm } from '../phrase-utils.js';
import { type Draft, draft } from '../rule-types.js';

export interface ClauseSubject {
  /** Roster token of the person the clause is about. */
  readonly token: string;
  readonly name: string;
  /** The clause is someone else's claim about this person. */
  readonly thirdParty: boolean;
  /** First-person text for the self rules. */
  readonly text: string;
}

export interface SubjectContext {
  readonly author: RosterEntry;
  /** Roster members other than the author (no `server`). */
  readonly others: readonly RosterEntry[];
  /** The only other member this message mentions or replies to, if exactly one. */
  readonly addressee: RosterEntry | null;
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const REPORTED =
  /^(?:(?:\w+ )?(?:says|said|thinks|thought|believes|claims|told|tells|wants|needs|seems|looks|sounds|feels|knows|asked|asks|wonders|mentioned|swears|insists|reckons))\b/i;
const STATE_IS =
  /^'s (?=(?:from|an?|learning|allergic|studying|getting|moving|been|into|obsessed|not|no longer|married|engaged|single|vegan|vegetarian|dating|training|working|living|originally|always|currently|the best|a|really|so|such)\b)/i;
const ADVERBS =
  '(?:(?:really|also|still|totally|absolutely|definitely|actually|literally|secretly|always|now|currently|just|apparently|lowkey|basically) )*';

function toFirstPerson(rest: string): string | null {
  let text = rest;
  if (STATE_IS.test(text)) text = `i am ${text.slice(3)}`;
  else if (/^'s /i.test(text)) text = `my ${text.slice(3)}`;
  else {
    const m = new RegExp(`^(${ADVERBS})(is|has|was|does not|does|no longer|never|[a-z]+s)\\b`, 'i').exec(
      text,
    );
    if (m === null || REPORTED.test(text.slice((m[1] ?? '').length))) return null;
    const verb = (m[2] ?? '').toLowerCase();
    const first =
      verb === 'is'
        ? 'am'
        : verb === 'was'
          ? 'was'
          : verb === 'does not'
            ? 'do not'
            : /^(?:no longer|never)$/.test(verb)
              ? verb
              : baseForm(verb);
    text = `i ${m[1] ?? ''}${first}${text.slice(m[0].length)}`;
  }
  return text.replace(/\b(?:his|her|their)\b/gi, 'my').replace(/\b(?:he|she|they) (?:is|are)\b/gi, 'i am');
}

function fromSecondPerson(text: string): string | null {
  const m = /^(?:you are|you have|you|your)\b/i.exec(text);
  if (m === null) return null;
  const head = m[0].toLowerCase();
  const swapped = head === 'you are' ? 'i am' : head === 'you have' ? 'i have' : head === 'your' ? 'my' : 'i';
  const rest = text.slice(m[0].length);
  if (head === 'you' && REPORTED.test(rest.trim())) return null;
  return `${swapped}${rest}`.replace(/\byour\b/gi, 'my').replace(/\byourself\b/gi, 'myself');
}

/** Resolve the subject of a (filler-stripped) clause; null when it is about nobody we know. */
export function resolveSubject(clause: string, ctx: SubjectContext): ClauseSubject | null {
  const self = (text: string): ClauseSubject => ({
    token: ctx.author.token,
    name: ctx.author.name,
    thirdParty: false,
    text,
  });
  if (/^(?:i|my|call me)\b/i.test(clause)) return self(clause);
  const byLength = [...ctx.others].sort((a, b) => b.name.length - a.name.length);
  for (const member of byLength) {
    const m = new RegExp(`^@?${escapeRe(member.name)}(?=$|[\\s,:'!])[,:!]?\\s*`, 'i').exec(clause);
    if (m === null) continue;
    const rest = clause.slice(m[0].length);
    if (/^(?:i|my)\b/i.test(rest)) return self(rest);
    const text = fromSecondPerson(rest) ?? toFirstPerson(rest);
    if (text === null) return null;
    return { token: member.token, name: member.name, thirdParty: true, text };
  }
  const unknownMention = /^@[\w.-]+[,:]?\s+/.exec(clause);
  if (unknownMention !== null) return resolveSubject(clause.slice(unknownMention[0].length), ctx);
  if (ctx.addressee !== null) {
    const second = fromSecondPerson(clause);
    if (second !== null)
      return { token: ctx.addressee.token, name: ctx.addressee.name, thirdParty: true, text: second };
  }
  // "blue is my favorite color": first person later in the clause, nobody else named first.
  if (/\b(?:my|me)\b/i.test(clause) && !/^(?:you|your|he|she|they|we|it|this|that)\b/i.test(clause)) {
    return self(clause);
  }
  return null;
}

const NAME_CALL =
  /\byou(?: are)?\s+(?:(?:an?|such an?|the)\s+)?(?:(?:absolute|total|complete|utter|literal|massive|huge|big|fucking|freaking|damn|giant|certified|actual|little|dirty|filthy)\s+)+([a-z]{3,20})\b/i;
const NOT_A_LABEL = /^(?:mood|mess|vibe|legend|star|gem|sweetheart|darling|angel|sweetie|beast)$/i;

/** "you absolute hacker" in a message aimed at one member → "Bob was called a hacker by Alice". */
export function matchNameCalling(sentence: string, about: RosterEntry, speakerName: string): Draft | null {
  const m = NAME_CALL.exec(sentence);
  const label = m?.[1]?.toLowerCase();
  if (label === undefined || NOT_A_LABEL.test(label) || /(?:ing|ly)$/.test(label)) return null;
  const an = /^[aeiou]/.test(label) ? 'an' : 'a';
  return draft(
    [`${about.name} was called ${an} ${label} by ${speakerName}`],
    'relationships',
    0.6,
    null,
    null,
  );
}

const IS_A =
  /^i am (?:(?:such|really|literally|basically|kind of|kinda|a total|an absolute) )*(an?) ((?:[a-z]+ )?[a-z]{3,20})$/i;

/** "@bob is a hacker" (no job word) → "Bob was called a hacker by Alice". */
export function matchCalledLabel(firstPerson: string, about: RosterEntry, speakerName: string): Draft | null {
  const m = IS_A.exec(firstPerson);
  const label = m?.[2]?.toLowerCase();
  if (label === undefined || /^(?:bit|little|lot|few|while|couple|moment|sec|second|minute)\b/.test(label))
    return null;
  return draft(
    [`${about.name} was called ${m?.[1]?.toLowerCase() ?? 'a'} ${label} by ${speakerName}`],
    'relationships',
    0.6,
    null,
    null,
  );
}
