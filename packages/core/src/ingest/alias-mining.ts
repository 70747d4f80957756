import { isValidAlias, normalizeAlias } from '../identity/aliases.js';
import { AliasSource } from '../model/enums.js';
import { findSelfNamings, parseStatedName } from '../text/self-naming.js';

const WEIGHT = { name: 0.88, nickname: 0.86 } as const;

function asAlias(name: string): string | null {
  const alias = normalizeAlias(name);
  return isValidAlias(alias) ? alias : null;
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
  const out: MinedAlias[] = [];
  for (const line of content.split('\n'))
    for (const stated of findSelfNamings(line)) {
      const alias = asAlias(stated.name);
      if (alias && !out.some((a) => a.alias === alias))
        out.push({ alias, source: AliasSource.REAL_NAME, weight: WEIGHT[stated.kind] });
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
    `^${escaped}(?:'s (?:real |full |first )?name is| goes by(?: the name)?| is called| is named| prefers to be called) (.+)`,
    'iu',
  );
  const match = re.exec(text.trim());
  const stated = match?.[1] ? parseStatedName(match[1]) : null;
  const alias = stated ? asAlias(stated) : null;
  return alias && alias !== normalizeAlias(subject)
    ? { alias, source: AliasSource.REAL_NAME, weight: 0.85 }
    : null;
}
