import type { Message } from 'discord.js';
import { threadParentOf } from './message-event.js';
import type { DiscordMemoryOptions } from './options.js';

/** Guild allowlist, DM switch, ignored channels (and threads under them) and ignored roles. */
export function shouldObserve(message: Message, options: DiscordMemoryOptions): boolean {
  if (message.system) return false;
  if (message.guildId === null) return options.observeDMs ?? false;
  if (options.guilds && !options.guilds.includes(message.guildId)) return false;
  const ignoredChannels = options.ignoredChannelIds ?? [];
  if (ignoredChannels.includes(message.channelId)) return false;
  const parent = threadParentOf(message);
  if (parent !== null && ignoredChannels.includes(parent)) return false;
  const ignoredRoles = options.ignoredRoleIds ?? [];
  if (ignoredRoles.length > 0 && message.member?.roles.cache.hasAny(...ignoredRoles)) return false;
  return true;
}

/** Whether a guild is in the allowlist (every guild when there is none). */
export function guildAllowed(guildId: string, options: DiscordMemoryOptions): boolean {
  return !options.guilds || options.guilds.includes(guildId);
}
