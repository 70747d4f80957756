import type { Logger } from '@permafrost/core';
import type { Client } from 'discord.js';
import { DiscordAudienceGate, ownChannelGate } from './audience-gate.js';
import type { AudienceGate, AudiencePolicy } from './audience-types.js';
import { ChannelWarmer } from './channel-warmer.js';
import { DecisionCache } from './decision-cache.js';
import { onVisibilityChange } from './invalidation.js';
import { AudienceLookupError, resolveAudience, withTimeout } from './resolve-audience.js';

const DEFAULT_TIMEOUT_MS = 1_000;
const DM_GUILD_PREFIX = 'dm:';

export interface DiscordAudiencePolicyOptions {
  /** How long a read may wait for an uncached guild or reply channel to be fetched (default 1000 ms). */
  readonly timeoutMs?: number;
  /** Channels whose facts may be shown anywhere in their guild. */
  readonly publicChannelIds?: readonly string[];
  /** Receives `discord.audience_denied_on_error` (ids and a reason, never message content). */
  readonly logger?: Logger;
}

/** An `AudiencePolicy` that follows Discord's View Channel permissions. */
export interface DiscordAudiencePolicy extends AudiencePolicy {
  /** Detaches the policy from the client; later gates show only their own channel. */
  dispose(): void;
}

/**
 * Decides which channels' facts and messages may be shown in a reply channel, from the client's
 * cache of roles, permission overwrites and members (see `docs/discord.md`, "Who sees what"). DM
 * reads (guild id `dm:<userId>`) see only their own channel. Decisions are cached per (guild, reply
 * channel, source channel) and forgotten when channels, roles or members of the guild change.
 */
export function createDiscordAudiencePolicy(
  client: Client,
  options: DiscordAudiencePolicyOptions = {},
): DiscordAudiencePolicy {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const publicChannelIds: ReadonlySet<string> = new Set(options.publicChannelIds ?? []);
  const cache = new DecisionCache();
  const warmer = new ChannelWarmer((channelId) => client.channels.fetch(channelId));
  const unsubscribe = onVisibilityChange(client, (guildId) => cache.invalidateGuild(guildId));
  let disposed = false;

  const deniedOnError = (
    error: unknown,
    ids: { guildId: string; channelId: string; sourceChannelId?: string },
  ): void => {
    if (!options.logger) return;
    const reason = error instanceof AudienceLookupError ? error.reason : 'lookup_failed';
    try {
      options.logger({
        level: 'warn',
        event: 'discord.audience_denied_on_error',
        data: { ...ids, reason, code: errorCode(error) },
      });
    } catch {
      // a failing logger must not break a read
    }
  };

  return {
    async gate({ guildId, audience }): Promise<AudienceGate> {
      const own = audience.channelId;
      if (disposed || guildId.startsWith(DM_GUILD_PREFIX)) return ownChannelGate(own);
      try {
        const resolved = await withTimeout(resolveAudience(client, guildId, own), timeoutMs);
        return new DiscordAudienceGate({
          audience: resolved,
          publicChannelIds,
          cache,
          warmer,
          onError: (error, sourceChannelId) =>
            deniedOnError(error, { guildId, channelId: own, sourceChannelId }),
        });
      } catch (error) {
        deniedOnError(error, { guildId, channelId: own });
        return ownChannelGate(own);
      }
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      unsubscribe();
      cache.clear();
      warmer.clear();
    },
  };
}

/** A short machine code for the log (error class or API code), never the error's message. */
function errorCode(error: unknown): string | null {
  if (error instanceof AudienceLookupError) return null;
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = (error as { code: unknown }).code;
    if (typeof code === 'string' || typeof code === 'number') return String(code);
  }
  return error instanceof Error ? error.name : null;
}
