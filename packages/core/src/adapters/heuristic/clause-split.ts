/**
 * Splitting a sentence into clauses ("i live in seattle and work at acme" → two clauses, the
 * second inheriting "i"), and stripping leading fillers and hedges from each clause.
 */

const BASE_VERBS =
  'love|like|enjoy|adore|hate|dislike|prefer|live|work|study|moved|relocated|play|have|own|quit|stopped|gave up|no longer|am|go|attend|used to|recently|also|still|currently|just|started|got|speak|main|collect|do not|never|cannot|was|practice|teach|run';
const THIRD_VERBS =
  'loves|likes|enjoys|adores|hates|dislikes|prefers|lives|works|studies|plays|has|owns|is|goes|attends|quit|moved|speaks|collects|does not|never|was|teaches|runs';
const CLAUSE_START = new RegExp(
  `^(?:i|my|we|our|you|your|this server|the server|@\\S+|(?:${BASE_VERBS}|${THIRD_VERBS})\\b)`,
  'i',
);
const SEPARATOR =
  /\s*,\s*(?:and |but |plus |also |so |then )?|\s*;\s*|\s+(?:and|but|plus|also|so|though|however|whereas|and also|and then|but also)\s+/gi;
const BARE_BASE = new RegExp(`^(?:${BASE_VERBS})\\b`, 'i');
const BARE_THIRD = new RegExp(`^(?:${THIRD_VERBS})\\b`, 'i');

/**
 * Clauses of a sentence. A clause that starts with a bare verb inherits the subject of the
 * clause before it ("i" for base forms, the named person for third-person forms).
 */
export function splitClauses(sentence: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  for (const m of sentence.matchAll(SEPARATOR)) {
    const end = m.index;
    const after = sentence.slice(end + m[0].length);
    if (!CLAUSE_START.test(after)) continue;
    pieces.push(sentence.slice(start, end));
    start = end + m[0].length;
  }
  pieces.push(sentence.slice(start));
  const out: string[] = [];
  let subject: string | null = null;
  for (const raw of pieces) {
    let clause = raw.trim();
    if (clause.length === 0) continue;
    const lead = leadingSubject(clause);
    if (lead !== null) subject = lead;
    else if (subject !== null) {
      if (subject === 'i' && BARE_BASE.test(clause)) clause = `i ${clause}`;
      else if (subject !== 'i' && BARE_THIRD.test(clause)) clause = `${subject} ${clause}`;
    }
    out.push(clause);
  }
  return out;
}

function leadingSubject(clause: string): string | null {
  const stripped = stripFillers(clause).text;
  if (/^i\b/i.test(stripped)) return 'i';
  const named =
    /^(@?[\w.-]+)\s+(?:\w+\s+)?(?:is|has|loves|likes|lives|works|studies|plays|hates|enjoys|moved)\b/i.exec(
      stripped,
    );
  if (named !== null && !/^(?:it|this|that|there|he|she|they|we|you|what|who)$/i.test(named[1] ?? ''))
    return named[1] ?? null;
  return null;
}

export interface Stripped {
  readonly text: string;
  readonly hedged: boolean;
}

const FILLER =
  /^(?:(?:also|and|but|plus|so|well|oh|ok|okay|k|yeah|yea|ya|yes|yep|nah|honestly|tbh|ngl|btw|fyi|fr|lowkey|low key|anyway|anyways|actually|personally|hey|yo|hi|hello|hiya|sup|lol|lmao|haha\w*|hehe\w*|tho|welp|um+|uh+|hmm+|bro|dude|man|guys|bruh|fun fact|(?:big|great|good|some|exciting|sad|bad|quick|small) news|update|guess what|psa|for the record|just so you know|random but|news|in fact|as for me|same|real talk|then|now|oh and|oh also)\b[,:!.-]*\s*)+/i;
const HEDGE =
  /^(?:i think|i guess|i believe|i suppose|i feel like|i reckon|i would say|maybe|probably|perhaps|pretty sure|i am pretty sure|i am fairly sure|not sure but|apparently|kinda|sorta|i mean)\b[,]?\s*(?:that\s+)?/i;
const TRAILING =
  /(?:\s+|^)(?:lol|lmao|lmfao|rofl|haha\w*|hehe\w*|xd|fr|tbh|ngl|tho|honestly|i guess|i think|kek|smh|ok|okay|lel|xoxo|!+)\s*$/i;

/** Remove leading fillers ("ok so", "btw") and hedges ("i think"), and trailing laughter. */
export function stripFillers(clause: string): Stripped {
  let text = clause.trim();
  let hedged = false;
  for (let i = 0; i < 6; i++) {
    const before = text;
    text = text.replace(FILLER, '');
    const h = HEDGE.exec(text);
    if (h !== null) {
      hedged = true;
      text = text.slice(h[0].length);
    }
    text = text.replace(TRAILING, '').trim();
    if (text === before) break;
  }
  return { text, hedged };
}
