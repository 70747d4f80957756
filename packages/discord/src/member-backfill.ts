import type { Memory } from '@permafrost/core';
import type { Guild } from 'discord.js';
import { displayNameOf } from './message-event.js';

const MAX_PAGE = 1000;

/**
 * Registers the username and display name of every (non-bot) member of a guild as aliases, one
 * page of members at a time. Returns the number of aliases written.
 */
export async function backfillGuildAliases(
  memory: Memory,
  guild: Guild,
  pageSize = MAX_PAGE,
): Promise<number> {
  const limit = Math.min(Math.max(1, Math.trunc(pageSize)), MAX_PAGE);
  let after: string | undefined;
  let written = 0;
  for (;;) {
    const page = await guild.members.list({ limit, cache: false, ...(after !== undefined ? { after } : {}) });
    const members = [...page.values()].filter((m) => !m.user.bot);
    if (members.length > 0)
      written += await memory.ops.backfillAliases({
        guildId: guild.id,
        members: members.map((m) => ({
          userId: m.id,
          username: m.user.username,
          displayName: displayNameOf(m.user, m),
        })),
      });
    if (page.size < limit) return written;
    after = page.lastKey();
    if (after === undefined) return written;
  }
}
