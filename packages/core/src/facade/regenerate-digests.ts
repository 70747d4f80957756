import type { Started } from '../composition/compose.js';
import { refreshDigest } from '../ingest/digests.js';

/**
 * `memory.regenerateSummaries`: regenerates profile digests now, for the given members or every
 * member with facts, plus the server. Returns how many changed.
 */
export async function regenerateDigests(
  started: Pick<Started, 'rt' | 'deps' | 'identity'>,
  input: { readonly guildId: string; readonly userIds?: readonly string[] | undefined },
): Promise<number> {
  const { rt, deps, identity } = started;
  const subjects: (string | null)[] = input.userIds
    ? [...input.userIds]
    : [
        ...new Set(
          (await rt.store.facts.topStrength({ guildId: input.guildId }, 500)).map((f) => f.subjectId),
        ),
      ];
  if (!subjects.includes(null)) subjects.push(null);
  let n = 0;
  for (const subjectId of subjects) {
    const name =
      subjectId === null
        ? 'the server'
        : ((await identity.displayName({ guildId: input.guildId, userId: subjectId })) ?? 'a member');
    if ((await refreshDigest(deps, input.guildId, subjectId, name, true)) === 'updated') n++;
  }
  return n;
}
