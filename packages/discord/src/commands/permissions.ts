import { type Interaction, PermissionFlagsBits } from 'discord.js';
import type { MemoryCommandOptions } from '../options.js';

/**
 * Whether the member behind an interaction may read other members' memory: one of
 * `adminRoleIds`, or the `adminPermission` (ManageGuild unless configured otherwise).
 */
export function isMemoryAdmin(interaction: Interaction, options: MemoryCommandOptions): boolean {
  const permission =
    options.adminPermission === undefined ? PermissionFlagsBits.ManageGuild : options.adminPermission;
  if (permission !== null && interaction.memberPermissions?.has(permission)) return true;
  const wanted = options.adminRoleIds ?? [];
  if (wanted.length === 0) return false;
  const roles = interaction.member?.roles;
  if (!roles) return false;
  // A cached GuildMember has a role manager; an uncached interaction member carries role ids.
  return Array.isArray(roles) ? roles.some((id) => wanted.includes(id)) : roles.cache.hasAny(...wanted);
}
