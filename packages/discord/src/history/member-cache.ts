import { DiscordAPIError, type Guild, type Message, RESTJSONErrorCodes } from 'discord.js';
import type { RequestPacer } from './request-pacer.js';

const GONE = new Set<number | string>([RESTJSONErrorCodes.UnknownMember, RESTJSONErrorCodes.UnknownUser]);

/**
 * Messages read over REST carry no member (only live events do), so the author's nickname and
 * roles come from the member cache. This fetches the members of a page's authors that are not
 * cached yet, once each (one paced request per author; members who left are remembered as gone),
 * so display names and `ignoredRoleIds` work exactly as for live messages.
 */
export class MemberCache {
  readonly #pacer: RequestPacer;
  readonly #gone = new Set<string>();

  constructor(pacer: RequestPacer) {
    this.#pacer = pacer;
  }

  /** False when the pacer was aborted before every author was fetched. */
  async ensureAuthors(guild: Guild, messages: readonly Message[]): Promise<boolean> {
    const wanted = new Set<string>();
    for (const m of messages)
      if (!m.author.bot && m.webhookId === null && !guild.members.cache.has(m.author.id))
        wanted.add(m.author.id);
    for (const userId of wanted) {
      const key = `${guild.id}:${userId}`;
      if (this.#gone.has(key)) continue;
      if (!(await this.#pacer.turn())) return false;
      try {
        await guild.members.fetch({ user: userId, cache: true });
      } catch (error) {
        if (!(error instanceof DiscordAPIError && GONE.has(error.code))) throw error;
        this.#gone.add(key);
      }
    }
    return true;
  }
}
