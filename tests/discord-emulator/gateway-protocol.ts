/** Gateway opcodes (subset of discord-api-types' GatewayOpcodes), erasable-syntax friendly. */
export const GatewayOp = {
  Dispatch: 0,
  Heartbeat: 1,
  Identify: 2,
  PresenceUpdate: 3,
  VoiceStateUpdate: 4,
  Resume: 6,
  Reconnect: 7,
  RequestGuildMembers: 8,
  InvalidSession: 9,
  Hello: 10,
  HeartbeatAck: 11,
} as const;

/** Gateway close codes the emulator may send. */
export const GatewayCloseCode = {
  UnknownError: 4000,
  UnknownOpcode: 4001,
  DecodeError: 4002,
  NotAuthenticated: 4003,
  AuthenticationFailed: 4004,
  AlreadyAuthenticated: 4005,
  InvalidSeq: 4007,
  InvalidShard: 4010,
  InvalidAPIVersion: 4012,
  InvalidIntents: 4013,
  DisallowedIntents: 4014,
} as const;

/** Gateway intent bits relevant to the emulated events. */
export const GatewayIntents = {
  Guilds: 1 << 0,
  GuildMembers: 1 << 1,
  GuildPresences: 1 << 8,
  GuildMessages: 1 << 9,
  GuildMessageReactions: 1 << 10,
  GuildMessageTyping: 1 << 11,
  DirectMessages: 1 << 12,
  DirectMessageReactions: 1 << 13,
  MessageContent: 1 << 15,
} as const;

/** Intents that must be enabled for the application (developer portal) before a bot may request them. */
export const PRIVILEGED_INTENTS =
  GatewayIntents.GuildMembers | GatewayIntents.GuildPresences | GatewayIntents.MessageContent;

export interface GatewayPayload {
  op: number;
  d: unknown;
  s: number | null;
  t: string | null;
}

/** The shard (of `count`) that receives events for a guild: `(guild_id >> 22) % count`. */
export function shardOf(guildId: string, count: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(Math.max(1, count)));
}

/** IDENTIFY (op 2) data as read by the emulator. */
export interface IdentifyData {
  token?: unknown;
  intents?: unknown;
  shard?: unknown;
  properties?: Record<string, unknown>;
  compress?: unknown;
  large_threshold?: unknown;
  presence?: unknown;
}

/** RESUME (op 6) data. */
export interface ResumeData {
  token?: unknown;
  session_id?: unknown;
  seq?: unknown;
}

/** REQUEST_GUILD_MEMBERS (op 8) data. */
export interface RequestMembersData {
  guild_id?: unknown;
  query?: unknown;
  limit?: unknown;
  user_ids?: unknown;
  nonce?: unknown;
  presences?: unknown;
}
