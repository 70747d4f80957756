import {
  type AnyThreadChannel,
  ChannelType,
  type ForumChannel,
  type Guild,
  type GuildMember,
  type GuildTextBasedChannel,
  type MediaChannel,
  type NewsChannel,
  type NonThreadGuildBasedChannel,
  PermissionFlagsBits,
  type TextChannel,
} from 'discord.js';
import { guildAllowed } from '../message-filter.js';
import type { DiscordMemoryOptions } from '../options.js';
import { compareIds } from './history-cursor.js';
import type { ChannelImportStatus } from './history-types.js';
import type { RequestPacer } from './request-pacer.js';

const READ = [PermissionFlagsBits.ViewChannel, PermissionFlagsBits.ReadMessageHistory];

/** The channels a run reads, and those it leaves out (with why). */
export interface ChannelPlan {
  readonly toImport: readonly GuildTextBasedChannel[];
  readonly left: readonly { readonly channel: GuildTextBasedChannel; readonly status: ChannelImportStatus }[];
}

/**
 * `ignored` (guild not allowed, the channel or a thread's parent in `ignoredChannelIds`),
 * `no_access` (no View Channel or Read Message History; a private thread the bot has not joined
 * without Manage Threads), else `imported`.
 */
export function classify(
  channel: GuildTextBasedChannel,
  me: GuildMember,
  filters: DiscordMemoryOptions,
): ChannelImportStatus {
  const ignored = filters.ignoredChannelIds ?? [];
  if (!guildAllowed(channel.guildId, filters) || ignored.includes(channel.id)) return 'ignored';
  if (channel.isThread() && channel.parentId !== null && ignored.includes(channel.parentId)) return 'ignored';
  const permissions = channel.permissionsFor(me);
  if (!permissions?.has(READ)) return 'no_access';
  if (
    channel.type === ChannelType.PrivateThread &&
    !channel.joined &&
    !permissions.has(PermissionFlagsBits.ManageThreads)
  )
    return 'no_access';
  return 'imported';
}

/** Splits explicit channels by `classify`; null when the signal aborted. */
export async function planChannels(
  channels: readonly GuildTextBasedChannel[],
  filters: DiscordMemoryOptions,
  pacer: RequestPacer,
): Promise<ChannelPlan | null> {
  const toImport: GuildTextBasedChannel[] = [];
  const left: { channel: GuildTextBasedChannel; status: ChannelImportStatus }[] = [];
  for (const channel of channels) {
    const me = await memberOf(channel.guild, pacer);
    if (!me) return null;
    const status = classify(channel, me, filters);
    if (status === 'imported') toImport.push(channel);
    else left.push({ channel, status });
  }
  return { toImport, left };
}

/**
 * Every text-based channel of the guild (text, announcement, voice and stage chats) and every
 * thread: active ones, and archived public (and private, with Manage Threads, or joined) threads
 * of each readable parent that is not ignored. Null when the signal aborted.
 */
export async function planGuild(
  guild: Guild,
  filters: DiscordMemoryOptions,
  pacer: RequestPacer,
): Promise<ChannelPlan | null> {
  if (!guildAllowed(guild.id, filters)) return { toImport: [], left: [] };
  const me = await memberOf(guild, pacer);
  if (!me || !(await pacer.turn())) return null;
  const channels = [...(await guild.channels.fetch()).values()]
    .filter((c): c is NonThreadGuildBasedChannel => c !== null)
    .sort((a, b) => a.rawPosition - b.rawPosition);
  if (!(await pacer.turn())) return null;
  const threads = new Map<string, AnyThreadChannel>((await guild.channels.fetchActiveThreads()).threads);
  for (const parent of channels) {
    if (!isThreadParent(parent) || (filters.ignoredChannelIds ?? []).includes(parent.id)) continue;
    if (!parent.permissionsFor(me).has(READ)) continue;
    if (!(await archivedThreads(parent, me, pacer, threads))) return null;
  }
  const candidates: GuildTextBasedChannel[] = [
    ...channels.filter((c): c is NonThreadGuildBasedChannel & GuildTextBasedChannel => c.isTextBased()),
    ...[...threads.values()].sort((a, b) => compareIds(a.id, b.id)),
  ];
  const toImport: GuildTextBasedChannel[] = [];
  const left: { channel: GuildTextBasedChannel; status: ChannelImportStatus }[] = [];
  for (const channel of candidates) {
    const status = classify(channel, me, filters);
    if (status === 'imported') toImport.push(channel);
    else left.push({ channel, status });
  }
  return { toImport, left };
}

type ThreadParent = TextChannel | NewsChannel | ForumChannel | MediaChannel;

const isThreadParent = (channel: NonThreadGuildBasedChannel): channel is ThreadParent =>
  channel.type === ChannelType.GuildText ||
  channel.type === ChannelType.GuildAnnouncement ||
  channel.type === ChannelType.GuildForum ||
  channel.type === ChannelType.GuildMedia;

/** Adds a parent's archived threads (public; private too for text channels), 100 per request. */
async function archivedThreads(
  parent: ThreadParent,
  me: GuildMember,
  pacer: RequestPacer,
  into: Map<string, AnyThreadChannel>,
): Promise<boolean> {
  const kinds =
    parent.type === ChannelType.GuildText ? (['public', 'private'] as const) : (['public'] as const);
  for (const type of kinds) {
    // Every archived private thread needs Manage Threads; without it, the ones the bot joined.
    const fetchAll = type === 'public' || parent.permissionsFor(me).has(PermissionFlagsBits.ManageThreads);
    let before: AnyThreadChannel | undefined;
    for (;;) {
      if (!(await pacer.turn())) return false;
      const page = await parent.threads.fetchArchived({
        type,
        fetchAll,
        limit: 100,
        ...(before ? { before } : {}),
      });
      for (const thread of page.threads.values()) into.set(thread.id, thread);
      before = page.threads.last();
      if (!page.hasMore || !before) break;
    }
  }
  return true;
}

/** The bot's own member in a guild (fetched when not cached); null when the signal aborted. */
async function memberOf(guild: Guild, pacer: RequestPacer): Promise<GuildMember | null> {
  if (guild.members.me) return guild.members.me;
  if (!(await pacer.turn())) return null;
  return guild.members.fetchMe();
}
