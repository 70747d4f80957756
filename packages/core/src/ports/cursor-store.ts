/** Per-guild positions of background work (maintenance runs, community windows, watermarks). */
export interface CursorStore {
  getCursor(guildId: string, key: string): Promise<string | null>;
  setCursor(guildId: string, key: string, value: string): Promise<void>;
}
