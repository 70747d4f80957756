import type { Logger } from '@permafrost/core';

/** What `setupDiscordMemory` observes and how it reacts to member changes. */
export interface DiscordMemoryOptions {
  /** Only these guild ids are observed (default: every guild the bot is in). */
  readonly guilds?: readonly string[];
  /** Channels never observed; a thread is skipped when its parent channel is listed. */
  readonly ignoredChannelIds?: readonly string[];
  /** Members holding any of these roles are never observed. */
  readonly ignoredRoleIds?: readonly string[];
  /** Observe direct messages too, stored under guild id `dm:<userId>` (default false). */
  readonly observeDMs?: boolean;
  /** Observe message edits (default true). */
  readonly observeEdits?: boolean;
  /**
   * Most messages per `memory.observeMany` call (1–1000, default 100). A message is written at once
   * when no write is in flight; messages arriving during a write share the next call (one store
   * transaction). 1 writes every message on its own.
   */
  readonly observeBatchSize?: number;
  /** What happens to a member's memory when they leave a guild (default `keep`). */
  readonly onMemberLeave?: 'keep' | 'purge';
  /** Registers every member's username and display name as aliases when the client is ready. */
  readonly backfillAliases?: boolean;
  /** Members fetched per request during the backfill (1–1000, default 1000). */
  readonly backfillPageSize?: number;
  /** Structured log events (ids and codes only, never message content). The library never uses console. */
  readonly logger?: Logger;
}

/** Who may read other members' memory through `/memory`, and how the command behaves. */
export interface MemoryCommandOptions {
  /** Name of the slash command (default `memory`). */
  readonly commandName?: string;
  /** Members with any of these roles may `show`, `lookup`, `related` and `shared` other members. */
  readonly adminRoleIds?: readonly string[];
  /**
   * A permission that grants the same (default `ManageGuild`); `null` means roles only. Pass a
   * `PermissionFlagsBits` value.
   */
  readonly adminPermission?: bigint | null;
  /** How long confirmation buttons and the fact picker stay usable (default 60 000 ms). */
  readonly confirmTimeoutMs?: number;
  /** Most facts listed by `show` and `lookup` (default 50); longer lists are split across messages. */
  readonly maxListItems?: number;
  /**
   * Several bot processes on one memory: answer an interaction only after winning its claim
   * (`memory.claims.tryClaim`), so exactly one process replies (default false).
   */
  readonly claimInteractions?: boolean;
  /**
   * Turns on `/memory import` (admins only): imports the server's message history with
   * `importChannelHistory`. Without it the subcommand answers that import is not set up.
   */
  readonly historyImport?: HistoryImportCommandOptions;
  readonly logger?: Logger;
}

/** How `/memory import` runs the history import. */
export interface HistoryImportCommandOptions {
  /**
   * The options given to `setupDiscordMemory`: its guild allow-list, `ignoredChannelIds` and
   * `ignoredRoleIds` apply to the import exactly as to live messages.
   */
  readonly filters: DiscordMemoryOptions;
  /** Most Discord requests per second (default 5). */
  readonly maxRequestsPerSecond?: number;
  /** Most messages read per channel in one run (default: no limit; the next run continues). */
  readonly limitPerChannel?: number;
  /** Shortest time between two edits of the progress message (default 5,000 ms, at least 1,000). */
  readonly progressIntervalMs?: number;
  /** Stops imports in progress, for example when the bot shuts down (they continue on the next run). */
  readonly signal?: AbortSignal;
}
