import { looksLikeSnowflake } from '../identity/aliases.js';
import { resolveIdentifier } from '../identity/identity-service.js';
import type { Resolution } from '../identity/resolution.js';
import { AliasSource, RecallWarning } from '../model/enums.js';
import type { MemoryStore } from '../ports/memory-store.js';
import type { RecallSession } from '../recall/recall-session.js';

export interface Participants {
  /** Member ids, asker first (when allowed), then mentions and thread participants, deduplicated. */
  readonly people: readonly string[];
  readonly askerAllowed: boolean;
  readonly resolutions: readonly Resolution[];
  readonly warnings: ReadonlySet<RecallWarning>;
}

const MENTION = /^<@!?(\d{15,25})>$/;

const asId = (identifier: string, userId: string): Resolution => ({
  identifier,
  resolved: userId,
  candidates: [{ userId, matchedAlias: userId, source: AliasSource.MENTION, weight: 1, confidence: 1 }],
  ambiguous: false,
  basis: 'id',
});

/** The member id an entry names by itself (a `<@id>` mention or a snowflake), else null. */
export function directId(entry: string): string | null {
  const trimmed = entry.trim();
  const mention = MENTION.exec(trimmed)?.[1];
  return mention ?? (looksLikeSnowflake(trimmed) ? trimmed : null);
}

/**
 * Resolves the asker, mentions and thread participants. The asker is an id. Another entry is an
 * id when it looks like one (snowflake or `<@id>`) or is a member with aliases; otherwise it is a
 * name resolved through the alias ladder: ambiguous → `identity_ambiguous` and the person is
 * dropped (never a guess); unresolved → kept as given. Bots and opted-out members are dropped.
 */
export async function resolveParticipants(
  store: MemoryStore,
  input: {
    readonly guildId: string;
    readonly askerId: string;
    readonly others: readonly string[];
  },
  isBot: (userId: string) => boolean,
  session: RecallSession,
): Promise<Participants> {
  const warnings = new Set<RecallWarning>();
  const resolutions: Resolution[] = [asId(input.askerId, input.askerId)];
  const ids: string[] = [input.askerId];
  for (const raw of [...new Set(input.others)]) {
    const trimmed = raw.trim();
    if (trimmed.length === 0 || trimmed === input.askerId) continue;
    const userId = directId(trimmed);
    if (userId !== null) {
      resolutions.push(asId(raw, userId));
      ids.push(userId);
      continue;
    }
    if ((await store.aliases.aliasesOf(input.guildId, trimmed)).length > 0) {
      resolutions.push(asId(raw, trimmed));
      ids.push(trimmed);
      continue;
    }
    const r = await resolveIdentifier(store, input.guildId, trimmed);
    resolutions.push(r);
    if (r.ambiguous) warnings.add(RecallWarning.IDENTITY_AMBIGUOUS);
    else ids.push(r.resolved ?? trimmed);
  }
  const optedOut = await session.optedOut(input.guildId);
  const allowed = (u: string) => !isBot(u) && !optedOut.has(u);
  const people = [...new Set(ids)].filter(allowed);
  return { people, askerAllowed: allowed(input.askerId), resolutions, warnings };
}

/** Every unordered pair among the people (none when there is only one). */
export function discoveryPairs(people: readonly string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i < people.length; i++)
    for (let j = i + 1; j < people.length; j++) out.push([people[i] as string, people[j] as string]);
  return out;
}
