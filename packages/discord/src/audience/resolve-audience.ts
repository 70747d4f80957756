import type { Client, Guild, GuildBasedChannel } from 'discord.js';

/** Why a read fell back to its own channel only (logged, never thrown out of the policy). */
export type LookupFailure = 'timeout' | 'guild_not_found' | 'channel_not_found' | 'lookup_failed';

export class AudienceLookupError extends Error {
  readonly reason: LookupFailure;

  constructor(reason: LookupFailure) {
    super(`audience lookup failed: ${reason}`);
    this.name = 'AudienceLookupError';
    this.reason = reason;
  }
}

/** The reply channel of a read, found in the cache or fetched. */
export interface ResolvedAudience {
  readonly guild: Guild;
  readonly channelId: string;
  /** The parent channel when the reply channel is a thread. */
  readonly parentId: string | null;
}

/** Finds the guild, the reply channel and (for a thread) its parent, fetching what is not cached. */
export async function resolveAudience(
  client: Client,
  guildId: string,
  channelId: string,
): Promise<ResolvedAudience> {
  const guild =
    client.guilds.cache.get(guildId) ?? (await fetchOr(client.guilds.fetch(guildId), 'guild_not_found'));
  if (!guild.available) throw new AudienceLookupError('guild_not_found');
  const channel = await channelOf(guild, channelId);
  const parentId = channel.isThread() ? channel.parentId : null;
  if (channel.isThread()) {
    if (parentId === null) throw new AudienceLookupError('channel_not_found');
    await channelOf(guild, parentId); // the decisions need the parent's overwrites cached
  }
  return { guild, channelId: channel.id, parentId };
}

async function channelOf(guild: Guild, id: string): Promise<GuildBasedChannel> {
  const channel =
    guild.channels.cache.get(id) ?? (await fetchOr(guild.channels.fetch(id), 'channel_not_found'));
  if (!channel) throw new AudienceLookupError('channel_not_found');
  return channel;
}

/** Unknown or inaccessible ids (HTTP 404/403, a channel of another guild) become `reason`; anything else stays as thrown. */
async function fetchOr<T>(work: Promise<T>, reason: LookupFailure): Promise<T> {
  try {
    return await work;
  } catch (error) {
    const { status, code } = (typeof error === 'object' && error !== null ? error : {}) as {
      status?: unknown;
      code?: unknown;
    };
    if (status === 404 || status === 403 || code === 'GuildChannelUnowned')
      throw new AudienceLookupError(reason);
    throw error;
  }
}

/** Rejects with a `timeout` lookup error when `work` takes longer than `ms`; `work` keeps running. */
export function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new AudienceLookupError('timeout')), Math.max(0, ms));
    timer.unref?.();
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
