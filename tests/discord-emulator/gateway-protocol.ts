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
} as const;

/** Gateway intent bits relevant to the emulated events. */
export const GatewayIntents = {
  Guilds: 1 << 0,
  GuildMembers: 1 << 1,
  GuildMessages: 1 << 9,
  GuildMessageTyping: 1 << 11,
  DirectMessages: 1 << 12,
  MessageContent: 1 << 15,
} as const;

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
