export interface ActiveMode {
  readonly instanceId: string;
  readonly guildId: string;
  readonly channelId: string;
  readonly mode: string;
  readonly startedAt: Date;
  readonly lastActiveAt: Date;
}

/** Persistent "active conversation" state for multi-instance bots, owned by an instance id. */
export interface ActiveModeStore {
  upsertMode(mode: ActiveMode): Promise<void>;
  touchMode(
    key: { readonly instanceId: string; readonly guildId: string; readonly channelId: string },
    at: Date,
  ): Promise<boolean>;
  removeMode(key: {
    readonly instanceId: string;
    readonly guildId: string;
    readonly channelId: string;
  }): Promise<boolean>;
  listModes(options: { readonly activeSince: Date; readonly instanceId?: string }): Promise<ActiveMode[]>;
}
