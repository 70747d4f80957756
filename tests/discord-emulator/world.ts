import { ApiError } from './http-errors.js';
import { ADMINISTRATOR, channelPayload, isThreadType, rolePayload, userPayload } from './seed-payloads.js';
import { compareSnowflakes, insertSnowflake, snowflakeTimestamp } from './snowflake.js';
import type {
  ApiChannel,
  ApiCommand,
  ApiMember,
  ApiMessage,
  ApiRole,
  ApiUser,
  EmulatorOptions,
  GuildSeed,
  JsonObject,
  MemberSeed,
  RecordedFile,
} from './types.js';

/** Discord's default (and minimum) IDENTIFY `large_threshold`. */
export const DEFAULT_LARGE_THRESHOLD = 50;

export interface MemberState {
  userId: string;
  nick: string | null;
  roles: string[];
  joinedAt: string;
}

export interface GuildState {
  id: string;
  name: string;
  ownerId: string;
  roles: ApiRole[];
  channelIds: string[];
  members: Map<string, MemberState>;
  joinedAt: string;
}

/** The emulated universe: users, guilds, channels, members, messages, files, commands. */
export class World {
  readonly users = new Map<string, ApiUser>();
  readonly guilds = new Map<string, GuildState>();
  readonly channels = new Map<string, ApiChannel>();
  readonly messages = new Map<string, ApiMessage>();
  /** Stored files keyed by attachment id. */
  readonly files = new Map<string, RecordedFile>();
  /** Registered application commands keyed by "global" or a guild id. */
  readonly commands = new Map<string, ApiCommand[]>();
  readonly botUser: ApiUser;
  readonly applicationId: string;
  readonly #channelMessages = new Map<string, string[]>();

  constructor(options: EmulatorOptions) {
    this.botUser = userPayload({ ...options.botUser, bot: true });
    this.applicationId = options.applicationId ?? options.botUser.id;
    this.users.set(this.botUser.id, this.botUser);
    for (const user of options.users ?? []) this.users.set(user.id, userPayload(user));
    const startedAt = new Date().toISOString();
    for (const seed of options.guilds ?? []) this.addGuild(seed, startedAt);
  }

  addGuild(seed: GuildSeed, joinedAt: string): GuildState {
    const members = new Map<string, MemberState>();
    const guild: GuildState = {
      id: seed.id,
      name: seed.name,
      ownerId: seed.ownerId ?? seed.members?.find((m) => !m.user.bot)?.user.id ?? this.botUser.id,
      roles: [],
      channelIds: [],
      members,
      joinedAt,
    };
    const roleSeeds = seed.roles ?? [];
    if (!roleSeeds.some((r) => r.id === seed.id))
      guild.roles.push(rolePayload({ id: seed.id, name: '@everyone' }, 0, seed.id));
    roleSeeds.forEach((role, i) => {
      guild.roles.push(rolePayload(role, i, seed.id));
    });
    this.guilds.set(guild.id, guild);
    (seed.channels ?? []).forEach((channel, i) => {
      this.channels.set(channel.id, channelPayload(channel, i, guild.id, guild.ownerId, joinedAt));
      guild.channelIds.push(channel.id);
    });
    for (const member of seed.members ?? []) this.upsertMember(guild.id, member, joinedAt);
    if (!members.has(this.botUser.id))
      members.set(this.botUser.id, { userId: this.botUser.id, nick: null, roles: [], joinedAt });
    return guild;
  }

  upsertMember(guildId: string, seed: MemberSeed, joinedAt = new Date().toISOString()): MemberState {
    const guild = this.guild(guildId);
    this.users.set(seed.user.id, userPayload(seed.user));
    const member: MemberState = {
      userId: seed.user.id,
      nick: seed.nick ?? null,
      roles: seed.roles ?? [],
      joinedAt: seed.joinedAt ?? joinedAt,
    };
    guild.members.set(member.userId, member);
    return member;
  }

  user(id: string): ApiUser {
    const user = this.users.get(id);
    if (!user) throw new ApiError(404, 10013, 'Unknown User');
    return user;
  }

  guild(id: string): GuildState {
    const guild = this.guilds.get(id);
    if (!guild) throw new ApiError(404, 10004, 'Unknown Guild');
    return guild;
  }

  channel(id: string): ApiChannel {
    const channel = this.channels.get(id);
    if (!channel) throw new ApiError(404, 10003, 'Unknown Channel');
    return channel;
  }

  message(id: string): ApiMessage {
    const message = this.messages.get(id);
    if (!message) throw new ApiError(404, 10008, 'Unknown Message');
    return message;
  }

  member(guildId: string, userId: string): MemberState {
    const member = this.guild(guildId).members.get(userId);
    if (!member) throw new ApiError(404, 10007, 'Unknown Member');
    return member;
  }

  /** Effective guild-level permissions (role union; owner/administrator get Administrator). */
  permissionsOf(guildId: string, userId: string): string {
    const guild = this.guild(guildId);
    const member = guild.members.get(userId);
    let bits = 0n;
    for (const role of guild.roles) {
      if (role.id === guild.id || member?.roles.includes(role.id)) bits |= BigInt(role.permissions);
    }
    if (guild.ownerId === userId) bits |= ADMINISTRATOR;
    return bits.toString();
  }

  memberPayload(
    guildId: string,
    userId: string,
    opts: { user?: boolean; permissions?: boolean } = {},
  ): ApiMember {
    const member = this.member(guildId, userId);
    const payload: ApiMember = {
      nick: member.nick,
      roles: [...member.roles],
      joined_at: member.joinedAt,
      deaf: false,
      mute: false,
      flags: 0,
      pending: false,
      avatar: null,
      premium_since: null,
      communication_disabled_until: null,
    };
    if (opts.user !== false) payload.user = this.user(userId);
    if (opts.permissions) payload.permissions = this.permissionsOf(guildId, userId);
    return payload;
  }

  /** Members ordered by user id, as Discord's list endpoint returns them. */
  sortedMembers(guildId: string): MemberState[] {
    return [...this.guild(guildId).members.values()].sort((a, b) => compareSnowflakes(a.userId, b.userId));
  }

  /**
   * The GUILD_CREATE payload. A guild with more members than the session's `large_threshold` is
   * `large` and lists only the bot's own member (no presences are emulated, so every other member is
   * offline), as Discord does; archived threads are never listed.
   */
  guildCreatePayload(guildId: string, largeThreshold = DEFAULT_LARGE_THRESHOLD): JsonObject {
    const guild = this.guild(guildId);
    const channels = guild.channelIds.map((id) => this.channel(id));
    const large = guild.members.size > largeThreshold;
    const members = this.sortedMembers(guild.id).filter((m) => !large || m.userId === this.botUser.id);
    return {
      id: guild.id,
      name: guild.name,
      icon: null,
      splash: null,
      discovery_splash: null,
      owner_id: guild.ownerId,
      afk_channel_id: null,
      afk_timeout: 300,
      verification_level: 0,
      default_message_notifications: 0,
      explicit_content_filter: 0,
      features: [],
      mfa_level: 0,
      application_id: null,
      system_channel_id: null,
      system_channel_flags: 0,
      rules_channel_id: null,
      public_updates_channel_id: null,
      safety_alerts_channel_id: null,
      vanity_url_code: null,
      description: null,
      banner: null,
      premium_tier: 0,
      premium_subscription_count: 0,
      premium_progress_bar_enabled: false,
      preferred_locale: 'en-US',
      nsfw_level: 0,
      max_members: 500_000,
      max_video_channel_users: 25,
      joined_at: guild.joinedAt,
      large,
      unavailable: false,
      lazy: true,
      member_count: guild.members.size,
      roles: guild.roles,
      emojis: [],
      stickers: [],
      channels: channels.filter((c) => !isThreadType(c.type)),
      threads: channels.filter((c) => isThreadType(c.type) && c.thread_metadata?.archived !== true),
      members: members.map((m) => this.memberPayload(guild.id, m.userId)),
      presences: [],
      voice_states: [],
      stage_instances: [],
      guild_scheduled_events: [],
      soundboard_sounds: [],
    };
  }

  guildIdOf(channelId: string): string | undefined {
    return this.channel(channelId).guild_id;
  }

  /** Stores (or replaces) a message; `listed: false` keeps it out of channel history (ephemeral). */
  storeMessage(message: ApiMessage, options: { listed?: boolean } = {}): ApiMessage {
    if (!this.messages.has(message.id) && options.listed !== false) {
      const list = this.#channelMessages.get(message.channel_id) ?? [];
      insertSnowflake(list, message.id);
      this.#channelMessages.set(message.channel_id, list);
      const channel = this.channels.get(message.channel_id);
      if (channel) {
        if (list[list.length - 1] === message.id) channel.last_message_id = message.id;
        if (isThreadType(channel.type)) {
          channel.message_count = (channel.message_count ?? 0) + 1;
          channel.total_message_sent = (channel.total_message_sent ?? 0) + 1;
        }
      }
    }
    this.messages.set(message.id, message);
    return message;
  }

  deleteMessage(id: string): ApiMessage | undefined {
    const message = this.messages.get(id);
    if (!message) return undefined;
    this.messages.delete(id);
    const list = this.#channelMessages.get(message.channel_id);
    const index = list?.indexOf(id) ?? -1;
    if (list && index >= 0) list.splice(index, 1);
    return message;
  }

  /** Ids of a channel's listed messages, oldest first (ascending snowflakes, as Discord orders them). */
  messageIdsIn(channelId: string): readonly string[] {
    return this.#channelMessages.get(channelId) ?? [];
  }

  /** Messages of a channel, oldest first. */
  messagesIn(channelId: string): ApiMessage[] {
    return (this.#channelMessages.get(channelId) ?? []).flatMap((id) => {
      const message = this.messages.get(id);
      return message ? [message] : [];
    });
  }

  /** ISO timestamp of a snowflake, used for message timestamps. */
  static timestampOf(id: string): string {
    return new Date(snowflakeTimestamp(id)).toISOString();
  }
}
