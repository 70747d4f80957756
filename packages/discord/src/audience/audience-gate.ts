import { decide } from './audience-decision.js';
import type { AudienceGate, SourceChannel } from './audience-types.js';
import type { ChannelWarmer } from './channel-warmer.js';
import type { DecisionCache } from './decision-cache.js';
import type { ResolvedAudience } from './resolve-audience.js';

/** The gate of a read whose only visible channel is its own (DMs, and every lookup failure). */
export function ownChannelGate(channelId: string): AudienceGate {
  return { allows: (source) => source.channelId === channelId };
}

export interface GateDeps {
  readonly audience: ResolvedAudience;
  readonly publicChannelIds: ReadonlySet<string>;
  readonly cache: DecisionCache;
  readonly warmer: ChannelWarmer;
  /** Called when a decision throws (the source is then denied). */
  readonly onError: (error: unknown, sourceChannelId: string) => void;
}

/**
 * The gate of a read in a guild channel. Always allowed: the reply channel itself, its parent when
 * it is a thread, and `publicChannelIds`; everything else is decided by `decide` and remembered
 * until something that changes visibility happens in the guild.
 */
export class DiscordAudienceGate implements AudienceGate {
  readonly #deps: GateDeps;

  constructor(deps: GateDeps) {
    this.#deps = deps;
  }

  allows(source: SourceChannel): boolean {
    const { audience, publicChannelIds, cache, warmer } = this.#deps;
    const sourceId = source.channelId;
    if (sourceId === audience.channelId || sourceId === audience.parentId) return true;
    if (publicChannelIds.has(sourceId)) return true;
    const guildId = audience.guild.id;
    const remembered = cache.get(guildId, audience.channelId, sourceId);
    if (remembered !== undefined) return remembered;
    try {
      const decision = decide(audience.guild, audience.channelId, sourceId);
      if (typeof decision === 'object') {
        warmer.warm(decision.missing);
        return false;
      }
      const allowed = decision === 'allow';
      cache.set(guildId, audience.channelId, sourceId, allowed);
      return allowed;
    } catch (error) {
      this.#deps.onError(error, sourceId);
      return false;
    }
  }
}
