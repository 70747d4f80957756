export {
  type DiscordEmulator,
  type EmulatorClientOptions,
  type GatewaySessionInfo,
  startDiscordEmulator,
} from './emulator.js';
export type { DispatchOptions, GatewayFrameRecord } from './gateway.js';
export { GatewayCloseCode, GatewayIntents, GatewayOp } from './gateway-protocol.js';
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
export { ChannelTypes } from './seed-payloads.js';
export {
  compareSnowflakes,
  DISCORD_EPOCH_MS,
  isSnowflake,
  SnowflakeGenerator,
  snowflake,
  snowflakeTimestamp,
} from './snowflake.js';
export type * from './types.js';
