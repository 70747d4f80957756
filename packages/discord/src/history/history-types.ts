import type { Logger, Memory } from '@permafrost/core';
import type { Guild, GuildTextBasedChannel } from 'discord.js';
import type { DiscordMemoryOptions } from '../options.js';

/** What `importChannelHistory` reads and how fast. */
export interface ImportHistoryOptions {
  readonly memory: Memory;
  /** Every channel and thread of this guild the bot can read (active and archived threads). */
  readonly guild?: Guild;
  /** Or only these channels and threads (of one or several guilds). */
  readonly channels?: readonly GuildTextBasedChannel[];
  /** Messages older than this are not read (a later run without it continues further back). */
  readonly since?: Date;
  /** Most messages read per channel in this run (default: no limit); the next run continues. */
  readonly limitPerChannel?: number;
  /**
   * Most Discord requests per second (default 5, at most 50). discord.js's REST queue also keeps to
   * Discord's own rate limits; this ceiling leaves room for the bot's live traffic.
   */
  readonly maxRequestsPerSecond?: number;
  /**
   * The options given to `setupDiscordMemory`: its guild allow-list (`guilds`), `ignoredChannelIds`
   * (threads under them too) and `ignoredRoleIds` apply to the import exactly as to live messages.
   */
  readonly filters?: DiscordMemoryOptions;
  /** Called after every page (and once when a channel is done). Exceptions are logged and ignored. */
  readonly onProgress?: (progress: ImportProgress) => void;
  /** Aborts between pages; what was stored stays, and the next run continues from there. */
  readonly signal?: AbortSignal;
  /**
   * How long to keep retrying messages the memory turns away for now (its guild queue is full while
   * extraction catches up) before the run stops as `stalled` (default 300,000 ms).
   */
  readonly maxStallMs?: number;
  /** Structured log events (ids and counts only). The library never uses console. */
  readonly logger?: Logger;
}

/** Counts of messages read in one run. */
export interface ImportCountsByKind {
  /** Messages read from Discord (within `since`). */
  readonly fetched: number;
  /** Newly stored in the memory. */
  readonly stored: number;
  /** Already stored (observed live, or by an earlier run). */
  readonly duplicates: number;
  /** Not stored: bots and webhooks, system messages, ignored roles, opted-out members, empty text. */
  readonly skipped: number;
}

/** Reported after every page of a channel. */
export interface ImportProgress extends ImportCountsByKind {
  readonly guildId: string;
  readonly channelId: string;
  /** This channel is finished for this run. */
  readonly done: boolean;
  /** The whole run so far (channels counts those to import, not the ignored or unreadable). */
  readonly totals: ImportCountsByKind & { readonly channels: number; readonly channelsDone: number };
}

/** How one channel ended in this run. */
export type ChannelImportStatus =
  /** Read to its first message, to `since`, or to `limitPerChannel`. */
  | 'imported'
  /** Listed in `ignoredChannelIds` (or its parent is), or its guild is not in the allow-list. */
  | 'ignored'
  /** The bot cannot view it or read its history (or it was deleted meanwhile). */
  | 'no_access'
  /** Not started or not finished: the run was aborted or stalled first. */
  | 'interrupted';

export interface ChannelImportResult extends ImportCountsByKind {
  readonly guildId: string;
  readonly channelId: string;
  readonly status: ChannelImportStatus;
  /** Everything from the channel's first message up to the newest seen is stored (over all runs). */
  readonly complete: boolean;
}

/** What `importChannelHistory` returns. */
export interface ImportHistoryResult extends ImportCountsByKind {
  readonly channels: readonly ChannelImportResult[];
  /** Requests sent to Discord. */
  readonly requests: number;
  /** Why the run ended early: `signal` aborted, or the memory kept turning messages away. */
  readonly stopped: 'aborted' | 'stalled' | null;
}
