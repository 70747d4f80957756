import { type Fact, isActive, isValidAt } from '../model/fact.js';
import type { ScoredFact } from './recall-types.js';

/** Per-subject caps count server facts under this key. */
export const SERVER_SUBJECT_KEY = '__server__';

export interface HardFilter {
  readonly guildId: string;
  /** `guild`: any subject; `server`: server facts only; `subjects`: these subjects (+ server if asked). */
  readonly scope: 'guild' | 'server' | 'subjects';
  readonly subjects: ReadonlySet<string>;
  readonly includeServer: boolean;
  readonly asOf: Date | null;
  readonly excluded: ReadonlySet<string>;
  readonly optedOut: ReadonlySet<string>;
  isBot(userId: string): boolean;
  /** The audience may see what was learned in these channels. */
  visible(channels: Fact['channels']): boolean;
}

function inScope(fact: Fact, f: HardFilter): boolean {
  if (f.scope === 'server') return fact.subjectId === null;
  if (f.scope === 'subjects')
    return fact.subjectId === null ? f.includeServer : f.subjects.has(fact.subjectId);
  return true;
}

/**
 * Hard filters: guild, validity (active, or valid at `asOf`), scope, excluded ids, bot subjects,
 * and members who opted out (as subject or as speaker). `minScore` applies to the final score.
 */
export function passesHardFilters(item: ScoredFact, f: HardFilter): boolean {
  const fact = item.fact;
  if (fact.guildId !== f.guildId) return false;
  if (f.asOf ? !isValidAt(fact, f.asOf) : !isActive(fact)) return false;
  if (!inScope(fact, f)) return false;
  if (f.excluded.has(fact.id)) return false;
  if (fact.subjectId !== null && (f.isBot(fact.subjectId) || f.optedOut.has(fact.subjectId))) return false;
  const speaker = fact.attribution.speakerId;
  if (speaker !== null && f.optedOut.has(speaker)) return false;
  return f.visible(fact.channels);
}

/** At most `maxPerSubject` per subject and `topK` overall; `trimmed` when anything was cut. */
export function capResults(
  items: readonly ScoredFact[],
  maxPerSubject: number,
  topK: number,
): { readonly facts: ScoredFact[]; readonly trimmed: boolean } {
  const perSubject = new Map<string, number>();
  const out: ScoredFact[] = [];
  let trimmed = false;
  for (const item of items) {
    const key = item.fact.subjectId ?? SERVER_SUBJECT_KEY;
    const n = perSubject.get(key) ?? 0;
    if (n >= maxPerSubject) continue;
    if (out.length >= topK) {
      trimmed = true;
      break;
    }
    perSubject.set(key, n + 1);
    out.push(item);
  }
  return { facts: out, trimmed };
}
