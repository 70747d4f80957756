import type { Audience, SourceChannel } from '../model/audience.js';

/** The answer of an audience policy for one read. */
export interface AudienceGate {
  /** Synchronous and total: true when items learned in `source` may be shown to the audience. */
  allows(source: SourceChannel): boolean;
}

/**
 * Decides who may see what was learned where. Core's default (`sameChannelPolicy`) allows the
 * audience's own channel and its threads plus `access.publicChannelIds`; `@permafrost/discord`
 * supplies one computed from Discord's permissions.
 */
export interface AudiencePolicy {
  /**
   * Resolved once per read. Never rejects: on error or timeout it resolves to a gate that denies
   * everything except the audience's own channel.
   */
  gate(input: { readonly guildId: string; readonly audience: Audience }): Promise<AudienceGate>;
}
