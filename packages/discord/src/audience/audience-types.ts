/*
 * These types mirror the `AudiencePolicy` port of `@permafrost/core` structurally, so this package
 * can ship before core exports them; once core does, they become a re-export of core's port.
 */

/** Who a read is for: the channel the answer will be posted in, and who asked. */
export interface Audience {
  readonly channelId: string;
  readonly requesterId?: string;
}

/** A channel a fact or message was learned in (parentId set when channelId is a thread). */
export interface SourceChannel {
  readonly channelId: string;
  readonly parentId: string | null;
}

export interface AudienceGate {
  /** Synchronous and total: true when items learned in `source` may be shown to the audience. */
  allows(source: SourceChannel): boolean;
}

export interface AudiencePolicy {
  /** Resolved once per read. Never rejects: on error or timeout it resolves to a gate that denies everything except the audience's own channel. */
  gate(input: { readonly guildId: string; readonly audience: Audience }): Promise<AudienceGate>;
}
