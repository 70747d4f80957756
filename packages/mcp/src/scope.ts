import { McpFailure } from './errors.js';

/** The guilds one server answers for; a call naming any other guild is refused. */
export class GuildScope {
  readonly #guilds: ReadonlySet<string>;

  constructor(guilds: readonly string[]) {
    const unique = [...new Set(guilds)];
    if (unique.length === 0) throw new TypeError('an MCP server serves at least one guild');
    for (const g of unique)
      if (g.length === 0 || g.length > 128) throw new TypeError('guild ids are 1 to 128 characters');
    this.#guilds = new Set(unique);
  }

  get guilds(): readonly string[] {
    return [...this.#guilds];
  }

  has(guildId: string): boolean {
    return this.#guilds.has(guildId);
  }

  /** Throws `GUILD_OUT_OF_SCOPE` (never echoing the id) unless the guild is served. */
  check(guildId: string): void {
    if (!this.#guilds.has(guildId))
      throw new McpFailure('GUILD_OUT_OF_SCOPE', 'this server does not serve the requested guild');
  }
}
