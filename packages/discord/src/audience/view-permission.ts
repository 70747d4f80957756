/**
 * Discord's View Channel computation over plain data (no discord.js), so the audience rules can be
 * reasoned about and tested in isolation. Order, as Discord applies it:
 *
 * 1. base = @everyone role permissions | permissions of each of the member's roles;
 *    the guild owner, or a base holding Administrator, sees every channel;
 * 2. the channel's @everyone overwrite (deny, then allow);
 * 3. all of the member's role overwrites together: every deny, then every allow;
 * 4. the member's own overwrite (deny, then allow).
 */

export const VIEW_CHANNEL = 1n << 10n;
export const ADMINISTRATOR = 1n << 3n;

/** One permission overwrite of a channel (role overwrites include @everyone, whose id is the guild id). */
export interface Overwrite {
  readonly id: string;
  readonly type: 'role' | 'member';
  readonly allow: bigint;
  readonly deny: bigint;
}

/** Guild-level facts the computation needs. */
export interface GuildPermissions {
  readonly guildId: string;
  readonly ownerId: string;
  /** Permissions of every role except @everyone, by role id. */
  readonly roles: ReadonlyMap<string, bigint>;
  /** Permissions of the @everyone role. */
  readonly everyone: bigint;
}

/** Whose view is computed: a set of roles, optionally a known member id (member overwrite, owner). */
export interface Principal {
  readonly roleIds: readonly string[];
  readonly memberId?: string;
}

/** The overwrites of the channel whose permissions apply (a thread's parent for a thread). */
export type ChannelOverwrites = readonly Overwrite[];

export function canView(guild: GuildPermissions, overwrites: ChannelOverwrites, who: Principal): boolean {
  if (who.memberId !== undefined && who.memberId === guild.ownerId) return true;
  const roleIds = who.roleIds.filter((id) => id !== guild.guildId);
  let base = guild.everyone;
  for (const id of roleIds) base |= guild.roles.get(id) ?? 0n;
  if ((base & ADMINISTRATOR) !== 0n) return true;

  let permissions = base;
  const everyone = overwrites.find((o) => o.type === 'role' && o.id === guild.guildId);
  if (everyone) permissions = (permissions & ~everyone.deny) | everyone.allow;

  let allow = 0n;
  let deny = 0n;
  for (const o of overwrites) {
    if (o.type !== 'role' || o.id === guild.guildId || !roleIds.includes(o.id)) continue;
    allow |= o.allow;
    deny |= o.deny;
  }
  permissions = (permissions & ~deny) | allow;

  const own =
    who.memberId === undefined
      ? undefined
      : overwrites.find((o) => o.type === 'member' && o.id === who.memberId);
  if (own) permissions = (permissions & ~own.deny) | own.allow;
  return (permissions & VIEW_CHANNEL) !== 0n;
}

/** Whether a member holding no role but @everyone sees the channel. */
export function everyoneCanView(guild: GuildPermissions, overwrites: ChannelOverwrites): boolean {
  return canView(guild, overwrites, { roleIds: [] });
}
