/** Who asked not to be remembered: opt-outs per guild (observe and recall obey them). */
export interface ConsentStore {
  setOptOut(guildId: string, userId: string, optedOut: boolean, at: Date): Promise<void>;
  isOptedOut(guildId: string, userId: string): Promise<boolean>;
  optedOutUsers(guildId: string): Promise<string[]>;
}
