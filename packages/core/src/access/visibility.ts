import type { MemoryConfig } from '../config/schema.js';
import type { Audience, SourceChannel } from '../model/audience.js';
import { RecallWarning } from '../model/enums.js';
import type { Digest } from '../model/graph.js';
import type { AudienceGate, AudiencePolicy } from '../ports/audience-policy.js';
import type { Logger } from '../ports/logger.js';

/** What one read may show: facts by the channels they were learned in, messages by their channel. */
export interface Visibility {
  /** False when the read is guild-wide (`access.requireAudience: false` and no audience). */
  readonly restricted: boolean;
  /** `audience_required` when a read came without an audience and only channel-free facts are shown. */
  readonly warning: RecallWarning | null;
  /** Facts (and digests, relations' evidence) learned in these channels; [] = channel-free. */
  channels(channels: readonly SourceChannel[]): boolean;
  /** A stored message (its channel, and its thread's parent). */
  message(message: { readonly channelId: string; readonly threadParentId: string | null }): boolean;
  /** A stable key for caches of audience-dependent results. */
  readonly key: string;
}

export interface AccessDeps {
  readonly policy: AudiencePolicy;
  readonly config: MemoryConfig['access'];
  readonly logger?: Logger;
}

const EVERYTHING: Visibility = {
  restricted: false,
  warning: null,
  channels: () => true,
  message: () => true,
  key: '*',
};

function gated(
  gate: AudienceGate,
  channelFree: boolean,
  key: string,
  warning: RecallWarning | null,
): Visibility {
  const allows = (c: SourceChannel) => {
    try {
      return gate.allows(c) === true;
    } catch {
      return false;
    }
  };
  return {
    restricted: true,
    warning,
    channels: (list) => (list.length === 0 ? channelFree : list.every(allows)),
    message: (m) => allows({ channelId: m.channelId, parentId: m.threadParentId }),
    key,
  };
}

/** Denies everything but the audience's own channel (and its threads): the answer to a policy that failed. */
const ownChannelOnly = (audience: Audience): AudienceGate => ({
  allows: (s) => s.channelId === audience.channelId || s.parentId === audience.channelId,
});

/**
 * The visibility of one read. With an audience, the policy's gate (a policy that throws or takes
 * longer than `access.policyTimeoutMs` falls back to the audience's own channel). Without one,
 * `access.requireAudience` decides: only channel-free facts and an `audience_required` warning
 * (default), or guild-wide reads.
 */
export async function resolveVisibility(
  deps: AccessDeps,
  guildId: string,
  audience: Audience | null | undefined,
): Promise<Visibility> {
  const { config } = deps;
  if (!audience) {
    if (!config.requireAudience) return EVERYTHING;
    return gated({ allows: () => false }, config.channelFreeVisible, '-', RecallWarning.AUDIENCE_REQUIRED);
  }
  const key = `${audience.channelId}|${audience.requesterId ?? ''}`;
  let timer: NodeJS.Timeout | undefined;
  const fallback = (reason: string) => {
    deps.logger?.({ level: 'warn', event: 'access.policy_failed', data: { guildId, reason } });
    return ownChannelOnly(audience);
  };
  const gate = await Promise.race([
    Promise.resolve()
      .then(() => deps.policy.gate({ guildId, audience }))
      .catch(() => fallback('error')),
    new Promise<AudienceGate>((resolve) => {
      timer = setTimeout(() => resolve(fallback('timeout')), config.policyTimeoutMs);
      timer.unref?.();
    }),
  ]).finally(() => clearTimeout(timer));
  return gated(gate, config.channelFreeVisible, key, null);
}

/**
 * A digest is shown only where every channel of the facts it summarises is visible; one written
 * before digests kept their channels (null) only to guild-wide reads.
 */
export function digestVisible(digest: Pick<Digest, 'channels'>, visible: Visibility): boolean {
  if (!visible.restricted) return true;
  return digest.channels !== null && visible.channels(digest.channels);
}
