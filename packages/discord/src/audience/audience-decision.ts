import type { Guild } from 'discord.js';
import { guildPermissions, knownMember, viewBasis } from './channel-access.js';
import { everyoneCanView } from './view-permission.js';
import { membersSubset, rolesSubset } from './viewer-subset.js';

/** `missing`: a channel the decision needs is not cached (deny now, without remembering it). */
export type Decision = 'allow' | 'deny' | { readonly missing: string };

/**
 * Whether what was learned in `sourceId` may be shown in `replyId` (both in `guild`), from the
 * discord.js cache alone; the same-channel and thread-parent shortcuts are the gate's.
 *
 * - A private thread is only ever visible in itself: deny.
 * - Allow when @everyone can view the source (@everyone role permissions plus the source's @everyone
 *   overwrite; a thread uses its parent's).
 * - Otherwise allow only when everyone who can view the reply channel can view the source. A thread
 *   reply channel counts with its parent's viewers (for a private thread, a superset of its members).
 *   With a complete member cache (`members.cache.size === memberCount`) each cached member is
 *   checked; without one, every role combination and member overwrite is (see `rolesSubset`).
 */
export function decide(guild: Guild, replyId: string, sourceId: string): Decision {
  const source = guild.channels.cache.get(sourceId);
  if (!source) return { missing: sourceId };
  const sourceBasis = viewBasis(guild, source);
  if (sourceBasis.kind === 'missing') return { missing: sourceBasis.channelId };
  if (sourceBasis.privateThread) return 'deny';

  const permissions = guildPermissions(guild);
  if (everyoneCanView(permissions, sourceBasis.overwrites)) return 'allow';

  const reply = guild.channels.cache.get(replyId);
  if (!reply) return { missing: replyId };
  const replyBasis = viewBasis(guild, reply);
  if (replyBasis.kind === 'missing') return { missing: replyBasis.channelId };

  const pair = { reply: replyBasis.overwrites, source: sourceBasis.overwrites };
  const members = guild.members.cache;
  const subset =
    members.size === guild.memberCount
      ? membersSubset(permissions, pair, [...members.values()].map(knownMember))
      : rolesSubset(permissions, pair, (id) => {
          const member = members.get(id);
          return member ? knownMember(member) : undefined;
        });
  return subset ? 'allow' : 'deny';
}
