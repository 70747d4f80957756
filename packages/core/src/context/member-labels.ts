import type { Visibility } from '../access/visibility.js';
import { normalizeAlias } from '../identity/aliases.js';
import type { IdentityService } from '../identity/identity-service.js';
import { AliasSource } from '../model/enums.js';
import type { MemoryStore } from '../ports/memory-store.js';
import { normalizeName } from '../text/untrusted.js';

/** How a member is printed in the memory block. */
export interface MemberLabel {
  /** The name as the member last wrote it (normalised), else their strongest alias. */
  readonly name: string | null;
  /**
   * `name`, followed by `(@username)` when the username differs: the platform username is unique
   * and cannot be borrowed, so two members showing the same display name never look alike.
   */
  readonly label: string | null;
  /** Other names of the same person (aliases), at most four. */
  readonly others: readonly string[];
}

/**
 * Names anyone in the guild can see on the member themselves: a real name someone stated in a
 * conversation is shown only to audiences that may see every channel (it may come from one they
 * may not).
 */
const PUBLIC_SOURCES: ReadonlySet<string> = new Set([
  AliasSource.DISPLAY_NAME,
  AliasSource.DISCORD_USERNAME,
  AliasSource.SUBJECT_USERNAME,
  AliasSource.BACKFILL,
  AliasSource.MANUAL,
]);

/** Labels of members for one block, read once per member. */
export function memberLabels(
  store: MemoryStore,
  identity: IdentityService,
  guildId: string,
  visible: Pick<Visibility, 'restricted'>,
) {
  const cache = new Map<string, Promise<MemberLabel>>();
  const read = async (userId: string): Promise<MemberLabel> => {
    const [all, latest] = await Promise.all([
      identity.aliasesOf({ guildId, userId }),
      store.conversation.authorHistory(guildId, userId, 1),
    ]);
    const aliases = visible.restricted ? all.filter((a) => PUBLIC_SOURCES.has(a.source)) : all;
    const distinct = [...new Set(aliases.map((a) => a.alias))];
    const shown = normalizeName(latest[0]?.authorDisplayName || latest[0]?.authorUsername || '');
    const name = shown.length > 0 ? shown : (distinct[0] ?? null);
    const username =
      normalizeName(latest[0]?.authorUsername ?? '') ||
      aliases.find((a) => a.source === AliasSource.DISCORD_USERNAME)?.alias ||
      '';
    const label =
      name !== null && username.length > 0 && normalizeAlias(username) !== normalizeAlias(name)
        ? `${name} (@${username})`
        : name;
    const lower = name === null ? null : normalizeAlias(name);
    return { name, label, others: distinct.filter((a) => a !== lower).slice(0, 4) };
  };
  return (userId: string): Promise<MemberLabel> => {
    let hit = cache.get(userId);
    if (!hit) {
      hit = read(userId);
      cache.set(userId, hit);
    }
    return hit;
  };
}
