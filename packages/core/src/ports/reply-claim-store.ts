/** Reply claims: only one bot instance answers a message (expired claims can be retaken). */
export interface ReplyClaimStore {
  /** Claims a message for one bot instance; true if we hold it now (free, expired, or ours). Keyed by guild, channel and message. */
  tryClaim(input: {
    readonly guildId: string;
    readonly channelId: string;
    readonly messageId: string;
    readonly owner: string;
    readonly now: Date;
    readonly ttlMs: number;
  }): Promise<boolean>;
  releaseClaim(input: {
    readonly guildId: string;
    readonly channelId: string;
    readonly messageId: string;
    readonly owner: string;
  }): Promise<boolean>;
}
