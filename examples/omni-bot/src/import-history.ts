/**
 * Imports the history a server already has into the bot's database: every channel and thread the
 * bot can read, newest first, resumable (run it again after an interruption and it continues), with
 * the same filters as the running bot. No CLI: call `importServerHistory` from your own code, or run
 *
 *   DISCORD_TOKEN=… GUILD_ID=… PERMAFROST_DB=omni-bot.db node dist/import-history-main.js
 *
 * A running bot can do the same with `/memory import` (server admins).
 */
import { createMemory } from '@permafrost/core';
import {
  type DiscordMemoryOptions,
  type ImportHistoryResult,
  type ImportProgress,
  importChannelHistory,
} from '@permafrost/discord';
import '@permafrost/store-sqlite';
import { Client, type ClientOptions, GatewayIntentBits } from 'discord.js';

export interface ImportServerHistoryOptions {
  readonly token: string;
  readonly guildId: string;
  readonly clientOptions?: Partial<ClientOptions>;
  /** SQLite file of the bot (default `omni-bot.db`). */
  readonly dbPath?: string;
  /** The bot's wiring options: its ignored channels and roles apply to the import too. */
  readonly wiring?: DiscordMemoryOptions;
  readonly onProgress?: (progress: ImportProgress) => void;
  /** Stops between pages; the next run continues from there. */
  readonly signal?: AbortSignal;
}

export async function importServerHistory(options: ImportServerHistoryOptions): Promise<ImportHistoryResult> {
  const client = new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent],
    ...options.clientOptions,
  });
  // Reads no memory, so no audience policy is needed here; extraction runs when the bot runs.
  const memory = createMemory({
    storage: `sqlite:///${options.dbPath ?? 'omni-bot.db'}`,
    llm: 'heuristic',
    workers: { enabled: false },
  });
  try {
    await client.login(options.token);
    const guild = await client.guilds.fetch(options.guildId);
    return await importChannelHistory({
      memory,
      guild,
      ...(options.wiring ? { filters: options.wiring } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } finally {
    await client.destroy();
    await memory.close({ drain: false });
  }
}
