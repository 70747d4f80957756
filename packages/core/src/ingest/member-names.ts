import { normalizeAlias } from '../identity/aliases.js';
import { normalizeVerb } from '../model/relation-rules.js';
import type { MemoryStore } from '../ports/memory-store.js';
import type { Candidate } from './candidate.js';
import { entitySlug } from './entity-slug.js';
import { independentEach } from './store-calls.js';

/** The member each name refers to (null: none, or several), by normalized alias. */
export type MemberNames = ReadonlyMap<string, string | null>;

/** The member a name unambiguously refers to (exactly one user holds that alias), else null. */
export async function memberByName(
  store: MemoryStore,
  guildId: string,
  name: string,
): Promise<string | null> {
  const alias = normalizeAlias(name);
  if (alias.length < 2) return null;
  const users = new Set((await store.aliases.find(guildId, alias, 8)).map((a) => a.userId));
  return users.size === 1 ? ([...users][0] as string) : null;
}

/** The names a candidate gives that may be members: its entities, and relation ends that name one. */
function namesOf(candidate: Candidate): string[] {
  return [
    ...candidate.entities.map((e) => e.name),
    ...candidate.relations.flatMap((r) =>
      normalizeVerb(r.verb) ? [r.from, r.to].flatMap((end) => (end.kind === 'entity' ? [end.name] : [])) : [],
    ),
  ].filter((name) => entitySlug(name).length > 0);
}

/**
 * `memberByName` for every distinct name the candidates give that `known` does not answer yet,
 * the lookups sent together where the store's transactions allow it; `known` included.
 */
export async function resolveMemberNames(
  store: MemoryStore,
  guildId: string,
  candidates: readonly Candidate[],
  known: MemberNames = new Map(),
): Promise<MemberNames> {
  const wanted = new Map<string, string>();
  for (const name of candidates.flatMap(namesOf)) {
    const key = normalizeAlias(name);
    if (!known.has(key) && !wanted.has(key)) wanted.set(key, name);
  }
  if (wanted.size === 0) return known;
  const found = await independentEach(store, [...wanted.values()], (name) =>
    memberByName(store, guildId, name),
  );
  return new Map([...known, ...[...wanted.keys()].map((key, i) => [key, found[i] ?? null] as const)]);
}
