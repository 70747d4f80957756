import { normalizeAlias } from '../identity/aliases.js';
import type { AliasSource } from '../model/enums.js';
import type { MemoryStore } from '../ports/memory-store.js';

type Register = (input: {
  guildId: string;
  userId: string;
  alias: string;
  source: AliasSource;
}) => Promise<unknown>;

/**
 * Observed names register as aliases only while the member has fewer than `max`: a new display
 * name on every message cannot grow one member's aliases (and the name space of the guild)
 * without bound. A name the member already holds is still refreshed.
 */
export function cappedAliasRegistration(store: MemoryStore, register: Register, max: number): Register {
  return async (input) => {
    const existing = await store.aliases.aliasesOf(input.guildId, input.userId);
    if (existing.length >= max && !existing.some((a) => a.alias === normalizeAlias(input.alias)))
      return false;
    return register(input);
  };
}
