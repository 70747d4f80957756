import { indexTerms } from '../text/analyze.js';

/** Phrasing of a change of state ("quit", "moved", "no longer", …). */
export const STATE_CHANGE =
  /\b(quit|quits|stopped|stops|no longer|not anymore|any ?more|gave up|gives up|moved|moving|relocated|switched|left|leaves|broke up|divorced|retired|sold|fired|laid off|graduated|now (lives|works|studies|goes))\b/i;

const POSITIVE = /\b(loves?|likes?|enjoys?|adores?|prefers?|is (a )?(big )?fan of|is into|favou?rite)\b/i;
const NEGATIVE =
  /\b(hates?|dislikes?|can'?t stand|quit|stopped|gave up|no longer (likes?|loves?|enjoys?|drinks?|eats?|plays?|uses?)|doesn'?t (like|love|enjoy) .* any ?more|is (done|over) with)\b/i;

interface Aspect {
  readonly name: string;
  readonly pattern: RegExp;
}

/** Single-valued aspects of a person: a new value replaces the old one. */
const ASPECTS: readonly Aspect[] = [
  {
    name: 'residence',
    pattern: /\b(lives?|living|moved|moving|relocated|resides?|based|home ?town|is from|now lives)\b/i,
  },
  {
    name: 'employment',
    pattern:
      /\b(works?|working|job|employed|hired|promoted|fired|laid off|quit (his|her|their) job|employer|career as)\b/i,
  },
  {
    name: 'school',
    pattern: /\b(studies|studying|student|enrolled|attends|graduated|university|college|school)\b/i,
  },
  {
    name: 'relationship',
    pattern: /\b(dating|married|engaged|girlfriend|boyfriend|partner|single|divorced|broke up)\b/i,
  },
];

const STRUCTURAL = new Set(
  indexTerms(
    'lives living moved moving now works working job studies student likes loves enjoys hates dislikes quit stopped no longer anymore gave up says said according',
  ),
);

function objectTerms(text: string, subjectTerms: ReadonlySet<string>): Set<string> {
  return new Set(indexTerms(text).filter((t) => !STRUCTURAL.has(t) && !subjectTerms.has(t) && t.length > 1));
}

function shareObject(a: string, b: string, subjectTerms: ReadonlySet<string>): boolean {
  const x = objectTerms(a, subjectTerms);
  for (const t of objectTerms(b, subjectTerms)) if (x.has(t)) return true;
  return false;
}

/** The single-valued aspect both texts talk about, if any. */
export function sharedAspect(a: string, b: string): string | null {
  for (const aspect of ASPECTS) if (aspect.pattern.test(a) && aspect.pattern.test(b)) return aspect.name;
  return null;
}

/**
 * Deterministic contradiction, no model needed: the new text retires the old one when both speak
 * of the same single-valued aspect and the new one states a change ("moved to Seattle" vs "lives
 * in Omaha"), or when both speak of the same object with flipped polarity ("quit Red Bull" vs
 * "loves Red Bull").
 */
export function contradicts(newText: string, oldText: string, subjectName = ''): boolean {
  const subjectTerms = new Set(indexTerms(subjectName));
  const aspect = sharedAspect(newText, oldText);
  if (aspect !== null && STATE_CHANGE.test(newText) && !STATE_CHANGE.test(oldText)) return true;
  const flip =
    (POSITIVE.test(oldText) && NEGATIVE.test(newText)) ||
    (NEGATIVE.test(oldText) && POSITIVE.test(newText) && !NEGATIVE.test(newText));
  return flip && shareObject(newText, oldText, subjectTerms);
}
