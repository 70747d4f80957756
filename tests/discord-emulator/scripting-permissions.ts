import type { EmulatorCore } from './core.js';
import { isThreadType, overwritePayload } from './seed-payloads.js';
import type { ApiChannel, ApiRole, OverwriteSeed } from './types.js';

/** What `updateChannel` may change. */
export interface ChannelChanges {
  name?: string;
  topic?: string | null;
  /** Replaces the channel's permission overwrites (threads have none: they use their parent's). */
  permissionOverwrites?: OverwriteSeed[];
  /** Threads only. */
  archived?: boolean;
}

/** What `updateRole` may change. */
export interface RoleChanges {
  name?: string;
  /** Permission bitfield as a decimal string. */
  permissions?: string;
}

/** Changes a channel and dispatches the whole channel as CHANNEL_UPDATE (THREAD_UPDATE for a thread). */
export function updateChannel(core: EmulatorCore, channelId: string, changes: ChannelChanges): ApiChannel {
  const { world, publish, notifier } = core;
  const channel = world.channel(channelId);
  const thread = isThreadType(channel.type);
  if (changes.permissionOverwrites !== undefined && thread)
    throw new Error('threads have no permission overwrites (they use their parent’s)');
  if (changes.archived !== undefined && !channel.thread_metadata)
    throw new Error('only threads are archived');
  if (changes.name !== undefined) channel.name = changes.name;
  if (changes.topic !== undefined && !thread) channel.topic = changes.topic;
  if (changes.permissionOverwrites !== undefined)
    channel.permission_overwrites = changes.permissionOverwrites.map(overwritePayload);
  if (changes.archived !== undefined && channel.thread_metadata) {
    channel.thread_metadata.archived = changes.archived;
    channel.thread_metadata.archive_timestamp = new Date().toISOString();
  }
  publish.channelUpdate(channel, thread);
  notifier.notify();
  return channel;
}

/** Changes a role and dispatches GUILD_ROLE_UPDATE. */
export function updateRole(
  core: EmulatorCore,
  guildId: string,
  roleId: string,
  changes: RoleChanges,
): ApiRole {
  const { world, publish, notifier } = core;
  const role = world.guild(guildId).roles.find((r) => r.id === roleId);
  if (!role) throw new Error(`unknown role ${roleId} in guild ${guildId}`);
  if (changes.name !== undefined) role.name = changes.name;
  if (changes.permissions !== undefined) role.permissions = changes.permissions;
  publish.roleUpdate(guildId, role);
  notifier.notify();
  return role;
}
