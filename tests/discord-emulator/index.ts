/**
 * Loopback Discord API v10 emulator (REST + gateway) for running unmodified discord.js 14 in tests.
 * See README.md in this folder for usage, client options and protocol notes.
 */
export { DiscordEmulator, type EmulatorClientOptions, startDiscordEmulator } from './emulator.js';
export type { DispatchOptions, GatewayFrameRecord, GatewaySessionInfo } from './gateway.js';
export {
  GatewayCloseCode,
  GatewayIntents,
  GatewayOp,
  type GatewayPayload,
  PRIVILEGED_INTENTS,
  shardOf,
} from './gateway-protocol.js';
export type { HistoryMessageInput, SeedHistoryOptions } from './history-seed.js';
export {
  type ButtonClick,
  type CommandInvocation,
  type CommandOptionValue,
  OptionType,
  opt,
  type TypedOptionValue,
} from './interaction-payloads.js';
export type { InteractionHandle, InteractionReply } from './interactions.js';
export type { AttachmentInput, UserMessageInput } from './messages.js';
export { EmulatorTimeoutError } from './notifier.js';
export type { PendingRequest, RequestHold } from './request-holds.js';
export type { ChannelChanges, RoleChanges } from './scripting-permissions.js';
export type { EmojiInput, ReactionInput } from './scripting-reactions.js';
export { ADMINISTRATOR, ChannelTypes, VIEW_CHANNEL } from './seed-payloads.js';
export {
  compareSnowflakes,
  DISCORD_EPOCH_MS,
  isSnowflake,
  SnowflakeGenerator,
  snowflake,
  snowflakeTimestamp,
} from './snowflake.js';
export type * from './types.js';
