import { ButtonStyle, type Guild } from 'discord.js';
import type { ImportHistoryResult, ImportProgress } from '../history/history-types.js';
import { importChannelHistory } from '../history/import-channel-history.js';
import { type ComponentContext, NO_PINGS, type SlashContext, say, settle } from './command-context.js';
import { askToConfirm } from './confirm-prompt.js';
import { ComponentAction } from './custom-id.js';
import { acquireImport, runningImport } from './import-lock.js';
import { ProgressMessage } from './import-progress.js';
import { finalText, progressText } from './import-text.js';

const DEFAULT_PROGRESS_MS = 5_000;
const MIN_PROGRESS_MS = 1_000;

/** Refuses members without the admin role/permission, and bots without `historyImport`. */
async function refused(ctx: SlashContext | ComponentContext): Promise<boolean> {
  const content = !ctx.admin
    ? 'Only server admins can import the message history.'
    : !ctx.options.historyImport
      ? 'History import is not set up for this bot.'
      : null;
  if (content === null) return false;
  await ctx.interaction.editReply({ content, components: [], allowedMentions: NO_PINGS });
  return true;
}

/** `/memory import` — asks an admin to confirm importing the server's history. */
export async function importCommand(ctx: SlashContext): Promise<void> {
  if (await refused(ctx)) return;
  const busy = runningImport(ctx.memory, ctx.guildId);
  if (busy) return void (await say(ctx, alreadyRunning(busy.fetched)));
  await askToConfirm(ctx, {
    content: (seconds) =>
      "Import this server's message history? I'll read every channel and thread I can see, newest " +
      'messages first, skipping ignored channels, bots and members who opted out. Messages I already ' +
      `have are skipped, and a stopped import continues where it left off. Confirm within ${seconds} s.`,
    action: ComponentAction.IMPORT_CONFIRM,
    label: 'Import history',
    style: ButtonStyle.Primary,
  });
}

/** The confirmation click: runs the import, editing the message with its progress. */
export async function importConfirmed(ctx: ComponentContext): Promise<void> {
  const settings = ctx.options.historyImport;
  if ((await refused(ctx)) || !settings) return;
  const lease = await acquireImport(ctx.memory, ctx.guildId);
  if (!lease) {
    const busy = runningImport(ctx.memory, ctx.guildId);
    return void (await settle(ctx, alreadyRunning(busy?.fetched ?? null)));
  }
  try {
    const guild: Guild = ctx.interaction.guild ?? (await ctx.interaction.client.guilds.fetch(ctx.guildId));
    const interval = Math.max(MIN_PROGRESS_MS, settings.progressIntervalMs ?? DEFAULT_PROGRESS_MS);
    const progress = new ProgressMessage(
      (content) => ctx.interaction.editReply({ content, components: [], allowedMentions: NO_PINGS }),
      interval,
    );
    progress.update('Importing the message history… starting.');
    const result: ImportHistoryResult = await importChannelHistory({
      memory: ctx.memory,
      guild,
      filters: settings.filters,
      ...(settings.maxRequestsPerSecond !== undefined
        ? { maxRequestsPerSecond: settings.maxRequestsPerSecond }
        : {}),
      ...(settings.limitPerChannel !== undefined ? { limitPerChannel: settings.limitPerChannel } : {}),
      ...(settings.signal ? { signal: settings.signal } : {}),
      ...(ctx.options.logger ? { logger: ctx.options.logger } : {}),
      onProgress: (p: ImportProgress) => {
        lease.status.fetched = p.totals.fetched;
        progress.update(progressText(p));
      },
    });
    const shown = await progress.finish(finalText(result, ctx.command));
    ctx.guard.log('info', 'discord.history_import_done', {
      guildId: ctx.guildId,
      fetched: result.fetched,
      stored: result.stored,
      stopped: result.stopped,
      shown,
    });
  } finally {
    await lease.release();
  }
}

const alreadyRunning = (fetched: number | null) =>
  fetched === null
    ? 'An import of this server is already running (in another bot process).'
    : `An import of this server is already running: ${fetched.toLocaleString('en-US')} messages read so far.`;
