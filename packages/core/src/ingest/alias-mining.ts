import { isValidAlias, normalizeAlias } from '../identity/aliases.js';
import { AliasSource } from '../model/enums.js';

const NAME = "([\\p{L}][\\p{L}\\p{N}'.-]*(?: [\\p{L}][\\p{L}\\p{N}'.-]*)?)";
const SELF_NAMING: readonly { readonly re: RegExp; readonly weight: number }[] = [
  { re: new RegExp(`\\bmy (?:real |full |first )?name(?:'s| is) ${NAME}`, 'iu'), weight: 0.88 },
  { re: new RegExp(`\\bcall me ${NAME}`, 'iu'), weight: 0.86 },
  { re: new RegExp(`\\bi go by ${NAME}`, 'iu'), weight: 0.85 },
];
const TRAILING = new Set([
  'and',
  'but',
  'or',
  'so',
  'the',
  'a',
  'an',
  'is',
  'it',
  'to',
  'too',
  'also',
  'then',
  'btw',
  'lol',
  'please',
  'pls',
  'from',
  'now',
  'here',
]);
/** "my brother's name is X", "my dog is called X", "someone named X": the name is not the speaker's. */
const THIRD_PARTY =
  /\b(?:my|our|his|her|their)\s+(?:\w+\s+)?(?:brother|sister|mom|mother|dad|father|cousin|uncle|aunt|grandma|grandpa|friend|roommate|boss|wife|husband|partner|son|daughter|kid|dog|cat|pet|bird|horse|fish|teacher|coworker|colleague|neighbou?r|boyfriend|girlfriend)(?:'s)?\s+name\b|\b\w+'s (?:real |full |first |last )?name\b|\bsomeone named\b|\bdon'?t call me\b/i;

function cleanName(raw: string): string | null {
  const words = raw.trim().split(/\s+/);
  if (words.length > 1 && TRAILING.has((words[1] as string).toLowerCase())) words.pop();
  const name = words.join(' ').replace(/[.'-]+$/, '');
  const alias = normalizeAlias(name);
  return isValidAlias(alias) && !TRAILING.has(alias) ? alias : null;
}

export interface MinedAlias {
  readonly alias: string;
  readonly source: AliasSource;
  readonly weight: number;
}

/**
 * Names a member states for themselves in a message ("my name is Sam", "call me Sam").
 * Statements about someone else's name ("my brother's name is…", "nolan's last name is…") are
 * never bound to the speaker.
 */
export function mineSelfAliases(content: string): MinedAlias[] {
  if (THIRD_PARTY.test(content)) return [];
  const out: MinedAlias[] = [];
  for (const { re, weight } of SELF_NAMING) {
    const match = re.exec(content);
    const alias = match?.[1] ? cleanName(match[1]) : null;
    if (alias && !out.some((a) => a.alias === alias))
      out.push({ alias, source: AliasSource.REAL_NAME, weight });
  }
  return out;
}

/**
 * A name stated in a fact about its own subject ("Alice's real name is Alicia", "Alice goes by Al").
 * Only used when the subject stated it themselves (no third-party speaker).
 */
export function mineFactAlias(text: string, subjectName: string): MinedAlias | null {
  const subject = subjectName.trim();
  if (subject.length < 2) return null;
  const escaped = subject.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(
    `^${escaped}(?:'s (?:real |full |first )?name is| goes by| is called| prefers to be called) ${NAME}`,
    'iu',
  );
  const match = re.exec(text.trim());
  const alias = match?.[1] ? cleanName(match[1]) : null;
  return alias && alias !== normalizeAlias(subject)
    ? { alias, source: AliasSource.REAL_NAME, weight: 0.85 }
    : null;
}
