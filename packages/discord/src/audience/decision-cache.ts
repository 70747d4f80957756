const DEFAULT_MAX_ENTRIES = 50_000;

/** Remembered decisions per (guild, reply channel, source channel); a guild's are dropped together. */
export class DecisionCache {
  readonly #byGuild = new Map<string, Map<string, boolean>>();
  readonly #maxEntries: number;
  #size = 0;

  constructor(maxEntries = DEFAULT_MAX_ENTRIES) {
    this.#maxEntries = maxEntries;
  }

  get(guildId: string, replyId: string, sourceId: string): boolean | undefined {
    return this.#byGuild.get(guildId)?.get(`${replyId}:${sourceId}`);
  }

  set(guildId: string, replyId: string, sourceId: string, allowed: boolean): void {
    if (this.#size >= this.#maxEntries) this.clear();
    let decisions = this.#byGuild.get(guildId);
    if (!decisions) {
      decisions = new Map();
      this.#byGuild.set(guildId, decisions);
    }
    const key = `${replyId}:${sourceId}`;
    if (!decisions.has(key)) this.#size++;
    decisions.set(key, allowed);
  }

  invalidateGuild(guildId: string): void {
    const decisions = this.#byGuild.get(guildId);
    if (!decisions) return;
    this.#size -= decisions.size;
    this.#byGuild.delete(guildId);
  }

  clear(): void {
    this.#byGuild.clear();
    this.#size = 0;
  }
}
