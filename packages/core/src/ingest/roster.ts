import { type RosterEntry, SERVER_TOKEN } from '../extraction/extraction-contract.js';
import type { StoredMessage } from '../model/message.js';
import { normalizeName } from '../text/untrusted.js';

/**
 * Roster tokens for one batch: the model sees `p0…pN` and `server`, never a platform id.
 * p0 is the batch author (member batches), then other authors in order, then mentioned members.
 */
export class Roster {
  readonly #byToken = new Map<string, RosterEntry & { readonly userId: string }>();
  readonly #byUser = new Map<string, string>();

  /** Adds a member under their name as shown (normalised: no invisible characters, one line). */
  add(userId: string, rawName: string, role: RosterEntry['role']): string {
    const existing = this.#byUser.get(userId);
    if (existing) return existing;
    const token = `p${this.#byToken.size}`;
    const name = normalizeName(rawName) || `member ${this.#byToken.size}`;
    this.#byToken.set(token, { token, name, role, userId });
    this.#byUser.set(userId, token);
    return token;
  }

  tokenOf(userId: string): string | undefined {
    return this.#byUser.get(userId);
  }

  /** User id of a token; null for `server`; undefined for a token that was never minted. */
  userOf(token: string): string | null | undefined {
    const t = token.trim().toLowerCase();
    if (t === SERVER_TOKEN) return null;
    return this.#byToken.get(t)?.userId;
  }

  nameOf(token: string): string | undefined {
    return this.#byToken.get(token.trim().toLowerCase())?.name;
  }

  nameOfUser(userId: string): string | undefined {
    const token = this.#byUser.get(userId);
    return token ? this.#byToken.get(token)?.name : undefined;
  }

  entries(): RosterEntry[] {
    return [...this.#byToken.values()].map(({ token, name, role }) => ({ token, name, role }));
  }

  /** Replaces stray roster tokens in model text with display names. */
  bindNames(text: string): string {
    return text.replace(/\bp(\d{1,3})\b/g, (m) => this.#byToken.get(m)?.name ?? m);
  }
}

/** A display name for a message author: display name, then username, then a neutral label. */
export function authorName(
  m: Pick<StoredMessage, 'authorDisplayName' | 'authorUsername'>,
  fallback: string,
): string {
  const name = normalizeName(m.authorDisplayName) || normalizeName(m.authorUsername);
  return name.length > 0 && !/^\d{9,}$/.test(name) ? name : fallback;
}
