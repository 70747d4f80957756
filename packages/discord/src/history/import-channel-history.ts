import { ErrorCode, MemoryError, type MemoryIssue } from '@permafrost/core';
import { DiscordAPIError, type GuildTextBasedChannel, RESTJSONErrorCodes } from 'discord.js';
import { HandlerGuard } from '../handler-guard.js';
import { importChannel } from './channel-import.js';
import { planChannels, planGuild } from './channel-plan.js';
import type {
  ChannelImportResult,
  ChannelImportStatus,
  ImportHistoryOptions,
  ImportHistoryResult,
} from './history-types.js';
import { MemberCache } from './member-cache.js';
import { emptyCounts, type MutableCounts, PageStore } from './page-store.js';
import { RequestPacer } from './request-pacer.js';

const DEFAULT_RPS = 5;
const MAX_RPS = 50;
const DEFAULT_MAX_STALL_MS = 300_000;
const DISCORD_EPOCH_MS = 1_420_070_400_000n;
const NO_ACCESS = new Set<number | string>([
  RESTJSONErrorCodes.MissingAccess,
  RESTJSONErrorCodes.MissingPermissions,
  RESTJSONErrorCodes.UnknownChannel,
]);

/**
 * Imports the history a server already has: pages backwards through each readable channel and
 * thread with `channel.messages.fetch({ before, limit: 100 })`, stores each page with
 * `memory.observeMany` (the live wiring's filters and translation, deduplicated by message id),
 * and keeps a cursor per channel in `memory.cursors`, so an aborted or limited run continues where
 * it stopped and a later run only reads what is new. Returns the run's totals.
 */
export async function importChannelHistory(options: ImportHistoryOptions): Promise<ImportHistoryResult> {
  const { memory, signal } = options;
  const settings = validated(options);
  const filters = options.filters ?? {};
  const guard = new HandlerGuard(options.logger);
  const pacer = new RequestPacer(settings.maxRequestsPerSecond, signal);
  const plan = options.guild
    ? await planGuild(options.guild, filters, pacer)
    : await planChannels(options.channels ?? [], filters, pacer);
  const results: ChannelImportResult[] = [];
  const totals = emptyCounts();
  let stopped: ImportHistoryResult['stopped'] = plan === null ? 'aborted' : null;
  const toImport = plan?.toImport ?? [];
  let channelsDone = 0;
  const members = new MemberCache(pacer);
  const pages = new PageStore({ memory, filters, signal, maxStallMs: settings.maxStallMs });
  for (const channel of toImport) {
    const counts = emptyCounts();
    const before = { ...totals };
    const report = (done: boolean) =>
      notify(guard, options, {
        guildId: channel.guildId,
        channelId: channel.id,
        ...counts,
        done,
        totals: { ...sum(before, counts), channels: toImport.length, channelsDone },
      });
    let status: ChannelImportStatus = 'interrupted';
    let complete = false;
    if (stopped === null) {
      try {
        const outcome = await importChannel({
          channel,
          memory,
          pacer,
          members,
          pages,
          signal,
          sinceFloor: settings.sinceFloor,
          budget: settings.limitPerChannel,
          counts,
          onPage: () => report(false),
        });
        complete = outcome.complete;
        stopped = outcome.stopped;
        if (stopped === null) status = 'imported';
      } catch (error) {
        if (!(error instanceof DiscordAPIError && NO_ACCESS.has(error.code))) throw error;
        status = 'no_access';
      }
      if (status !== 'interrupted') channelsDone++;
      Object.assign(totals, sum(before, counts));
      report(status !== 'interrupted');
      guard.log('info', 'discord.history_channel', { channelId: channel.id, status, ...counts });
    }
    results.push(result(channel, status, complete, counts));
  }
  for (const { channel, status } of plan?.left ?? [])
    results.push(result(channel, status, false, emptyCounts()));
  if (stopped) guard.log('warn', 'discord.history_stopped', { reason: stopped, requests: pacer.count });
  return { channels: results, ...totals, requests: pacer.count, stopped };
}

function result(
  channel: GuildTextBasedChannel,
  status: ChannelImportStatus,
  complete: boolean,
  counts: MutableCounts,
): ChannelImportResult {
  return { guildId: channel.guildId, channelId: channel.id, status, complete, ...counts };
}

const sum = (a: MutableCounts, b: MutableCounts): MutableCounts => ({
  fetched: a.fetched + b.fetched,
  stored: a.stored + b.stored,
  duplicates: a.duplicates + b.duplicates,
  skipped: a.skipped + b.skipped,
});

function notify(
  guard: HandlerGuard,
  options: ImportHistoryOptions,
  progress: Parameters<NonNullable<ImportHistoryOptions['onProgress']>>[0],
): void {
  try {
    options.onProgress?.(progress);
  } catch (error) {
    guard.log('warn', 'discord.history_progress_failed', { channelId: progress.channelId }, error);
  }
}

/** Checked options (SCHEMA_INVALID listing each problem, never a value). */
function validated(options: ImportHistoryOptions): {
  readonly maxRequestsPerSecond: number;
  readonly limitPerChannel: number;
  readonly maxStallMs: number;
  readonly sinceFloor: string | null;
} {
  const issues: MemoryIssue[] = [];
  const issue = (path: string, message: string) => issues.push({ path: [path], code: 'invalid', message });
  if (typeof options.memory?.observeMany !== 'function') issue('memory', 'a Permafrost memory is required');
  if ((options.guild === undefined) === (options.channels === undefined))
    issue('guild', 'pass either guild or channels');
  const rps = options.maxRequestsPerSecond ?? DEFAULT_RPS;
  if (!(rps === Number.POSITIVE_INFINITY || (rps > 0 && rps <= MAX_RPS)))
    issue('maxRequestsPerSecond', `must be above 0 and at most ${MAX_RPS} (or Infinity)`);
  const limit = options.limitPerChannel ?? Number.POSITIVE_INFINITY;
  if (!(limit === Number.POSITIVE_INFINITY || (Number.isInteger(limit) && limit >= 1)))
    issue('limitPerChannel', 'must be a whole number of at least 1');
  const stall = options.maxStallMs ?? DEFAULT_MAX_STALL_MS;
  if (!(Number.isFinite(stall) && stall >= 0)) issue('maxStallMs', 'must be a number of milliseconds');
  const since = options.since;
  if (since !== undefined && !(since instanceof Date && Number.isFinite(since.getTime())))
    issue('since', 'must be a valid Date');
  if (issues.length > 0)
    throw new MemoryError(ErrorCode.SCHEMA_INVALID, 'importChannelHistory: invalid options', { issues });
  return {
    maxRequestsPerSecond: rps,
    limitPerChannel: limit,
    maxStallMs: stall,
    sinceFloor: since === undefined ? null : floorOf(since),
  };
}

/** The largest snowflake older than `since`: messages above it were posted at or after `since`. */
function floorOf(since: Date): string {
  const ms = BigInt(since.getTime()) - DISCORD_EPOCH_MS;
  return ms <= 0n ? '0' : ((ms << 22n) - 1n).toString();
}
