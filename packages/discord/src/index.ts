export { handleMemoryInteraction } from './commands/handle-memory-interaction.js';
export { MemorySubcommand, memoryCommand } from './commands/memory-command.js';
export { isMemoryAdmin } from './commands/permissions.js';
export { jumpLink } from './jump-link.js';
export { displayNameOf, memoryGuildId, toMessageEvent } from './message-event.js';
export type { DiscordMemoryOptions, MemoryCommandOptions } from './options.js';
export { type DiscordMemoryHandle, setupDiscordMemory } from './setup-discord-memory.js';
export { MESSAGE_LIMIT, splitMessage } from './text/split-message.js';
