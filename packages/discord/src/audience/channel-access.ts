import { ChannelType, type Guild, type GuildBasedChannel, type GuildMember, OverwriteType } from 'discord.js';
import type { ChannelOverwrites, GuildPermissions, Overwrite } from './view-permission.js';
import type { KnownMember } from './viewer-subset.js';

/** A guild's roles and owner as plain data (throws when the @everyone role is not cached). */
export function guildPermissions(guild: Guild): GuildPermissions {
  const everyone = guild.roles.cache.get(guild.id);
  if (!everyone) throw new Error('the @everyone role is not cached');
  const roles = new Map<string, bigint>();
  for (const role of guild.roles.cache.values())
    if (role.id !== guild.id) roles.set(role.id, role.permissions.bitfield);
  return { guildId: guild.id, ownerId: guild.ownerId, roles, everyone: everyone.permissions.bitfield };
}

export function knownMember(member: GuildMember): KnownMember {
  return { id: member.id, roleIds: [...member.roles.cache.keys()] };
}

/**
 * Whose overwrites decide who sees a channel: its own, or for a thread its parent's (threads have
 * no overwrites). `missing` names a parent that is not cached.
 */
export type ViewBasis =
  | { readonly kind: 'overwrites'; readonly overwrites: ChannelOverwrites; readonly privateThread: boolean }
  | { readonly kind: 'missing'; readonly channelId: string };

export function viewBasis(guild: Guild, channel: GuildBasedChannel): ViewBasis {
  if (!channel.isThread())
    return { kind: 'overwrites', overwrites: overwritesOf(channel), privateThread: false };
  const parentId = channel.parentId;
  const parent = parentId === null ? undefined : guild.channels.cache.get(parentId);
  if (!parent || parent.isThread()) return { kind: 'missing', channelId: parentId ?? channel.id };
  return {
    kind: 'overwrites',
    overwrites: overwritesOf(parent),
    privateThread: channel.type === ChannelType.PrivateThread,
  };
}

function overwritesOf(channel: GuildBasedChannel): Overwrite[] {
  if (!('permissionOverwrites' in channel)) return [];
  return [...channel.permissionOverwrites.cache.values()].map((o) => ({
    id: o.id,
    type: o.type === OverwriteType.Member ? 'member' : 'role',
    allow: o.allow.bitfield,
    deny: o.deny.bitfield,
  }));
}
