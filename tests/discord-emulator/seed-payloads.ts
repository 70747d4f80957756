import type {
  ApiChannel,
  ApiOverwrite,
  ApiRole,
  ApiUser,
  ChannelSeed,
  OverwriteSeed,
  RoleSeed,
  UserSeed,
} from './types.js';

/** Channel types (subset of Discord's ChannelType) the emulator knows about. */
export const ChannelTypes = {
  GuildText: 0,
  DM: 1,
  GuildVoice: 2,
  GuildCategory: 4,
  GuildAnnouncement: 5,
  AnnouncementThread: 10,
  PublicThread: 11,
  PrivateThread: 12,
  GuildForum: 15,
} as const;

const bit = (n: number): bigint => 1n << BigInt(n);

/** Administrator permission bit. */
export const ADMINISTRATOR = bit(3);

/** View Channel permission bit. */
export const VIEW_CHANNEL = bit(10);

/** Sensible @everyone permissions: view, send, history, attach, embed, react, slash commands, threads. */
export const DEFAULT_EVERYONE_PERMISSIONS = [0, 6, 10, 11, 14, 15, 16, 18, 20, 21, 26, 31, 35, 38]
  .reduce((acc, n) => acc | bit(n), 0n)
  .toString();

export function isThreadType(type: number): boolean {
  return (
    type === ChannelTypes.AnnouncementThread ||
    type === ChannelTypes.PublicThread ||
    type === ChannelTypes.PrivateThread
  );
}

/** Channel types whose messages discord.js caches (text-based). */
export function isTextBasedType(type: number): boolean {
  return type === ChannelTypes.GuildText || type === ChannelTypes.GuildAnnouncement || isThreadType(type);
}

export function userPayload(seed: UserSeed): ApiUser {
  const user: ApiUser = {
    id: seed.id,
    username: seed.username,
    global_name: seed.global_name ?? null,
    discriminator: '0',
    avatar: seed.avatar ?? null,
    public_flags: 0,
  };
  if (seed.bot) user.bot = true;
  return user;
}

export function rolePayload(seed: RoleSeed, index: number, guildId: string): ApiRole {
  const everyone = seed.id === guildId;
  return {
    id: seed.id,
    name: seed.name,
    color: seed.color ?? 0,
    hoist: seed.hoist ?? false,
    icon: null,
    unicode_emoji: null,
    position: seed.position ?? (everyone ? 0 : index + 1),
    permissions: seed.permissions ?? (everyone ? DEFAULT_EVERYONE_PERMISSIONS : '0'),
    managed: false,
    mentionable: seed.mentionable ?? false,
    flags: 0,
  };
}

export function channelPayload(
  seed: ChannelSeed,
  index: number,
  guildId: string,
  ownerId: string,
  createdAt: string,
): ApiChannel {
  const type = seed.type ?? ChannelTypes.GuildText;
  const base: ApiChannel = {
    id: seed.id,
    type,
    name: seed.name,
    guild_id: guildId,
    parent_id: seed.parentId ?? null,
    last_message_id: null,
    rate_limit_per_user: 0,
  };
  if (isThreadType(type)) {
    return {
      ...base,
      owner_id: ownerId,
      message_count: 0,
      member_count: 1,
      total_message_sent: 0,
      flags: 0,
      thread_metadata: {
        archived: seed.archived ?? false,
        auto_archive_duration: 1440,
        archive_timestamp: createdAt,
        locked: false,
        create_timestamp: createdAt,
        ...(type === ChannelTypes.PrivateThread ? { invitable: true } : {}),
      },
    };
  }
  return {
    ...base,
    position: seed.position ?? index,
    permission_overwrites: (seed.permissionOverwrites ?? []).map(overwritePayload),
    nsfw: false,
    topic: seed.topic ?? null,
    flags: 0,
  };
}

export function overwritePayload(seed: OverwriteSeed): ApiOverwrite {
  return { id: seed.id, type: seed.type, allow: seed.allow ?? '0', deny: seed.deny ?? '0' };
}
