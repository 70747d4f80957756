import type { SourceChannel } from '../model/audience.js';
import type { AudienceGate, AudiencePolicy } from '../ports/audience-policy.js';

/**
 * Core's default audience policy: what was learned in a channel is shown in that channel and in
 * its threads (and what was learned in a thread, in that thread), plus whatever was learned in
 * `publicChannelIds` (or their threads) everywhere in the guild. A DM is its own guild
 * (`dm:<userId>`) and its own channel, so DM facts only ever reach that DM.
 */
export function sameChannelPolicy(publicChannelIds: readonly string[] = []): AudiencePolicy {
  const open = new Set(publicChannelIds);
  return {
    async gate({ audience }): Promise<AudienceGate> {
      const here = audience.channelId;
      return {
        allows: (source: SourceChannel) =>
          source.channelId === here ||
          source.parentId === here ||
          open.has(source.channelId) ||
          (source.parentId !== null && open.has(source.parentId)),
      };
    },
  };
}
