export type { Audience, AudienceGate, AudiencePolicy, SourceChannel } from './audience/audience-types.js';
export {
  createDiscordAudiencePolicy,
  type DiscordAudiencePolicy,
  type DiscordAudiencePolicyOptions,
} from './audience/discord-audience-policy.js';
export { handleMemoryInteraction } from './commands/handle-memory-interaction.js';
export { MemorySubcommand, memoryCommand } from './commands/memory-command.js';
export { isMemoryAdmin } from './commands/permissions.js';
export type {
  ChannelImportResult,
  ChannelImportStatus,
  ImportCountsByKind,
  ImportHistoryOptions,
  ImportHistoryResult,
  ImportProgress,
} from './history/history-types.js';
export { importChannelHistory } from './history/import-channel-history.js';
export { displayNameOf, memoryGuildId, toMessageEvent } from './message-event.js';
export type { DiscordMemoryOptions, HistoryImportCommandOptions, MemoryCommandOptions } from './options.js';
export { claimBeforeReply } from './reply/claim-before-reply.js';
export { isAddressedTo, type PromptRequest, promptFromMessage } from './reply/prompt-from-message.js';
export { type CitationSource, type ReplyOptions, replyWithCitations } from './reply/reply-with-citations.js';
export { type DiscordMemoryHandle, setupDiscordMemory } from './setup-discord-memory.js';
export { MESSAGE_LIMIT, splitMessage } from './text/split-message.js';
