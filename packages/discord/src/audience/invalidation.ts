import { type Client, Events } from 'discord.js';

/** Anything with a guild id: channels, threads, roles, members, guilds. */
type GuildScoped = { readonly guild?: { readonly id: string } | null; readonly guildId?: string | null };

const guildIdOf = (item: GuildScoped): string | undefined => item.guildId ?? item.guild?.id ?? undefined;

/**
 * Calls `invalidate(guildId)` whenever something that decides who sees a channel changes: channel
 * and thread updates and deletions (overwrites, a thread's privacy), role updates and deletions,
 * members joining, changing roles or leaving, and guild updates (a new owner). Returns the unsubscribe.
 */
export function onVisibilityChange(client: Client, invalidate: (guildId: string) => void): () => void {
  const byItem = (...items: unknown[]): void => {
    const item = items[items.length - 1] as GuildScoped;
    const guildId = guildIdOf(item);
    if (guildId !== undefined) invalidate(guildId);
  };
  const byGuild = (...guilds: unknown[]): void => {
    const guild = guilds[guilds.length - 1] as { readonly id: string };
    invalidate(guild.id);
  };
  const itemEvents = [
    Events.ChannelUpdate,
    Events.ChannelDelete,
    Events.ThreadUpdate,
    Events.ThreadDelete,
    Events.GuildRoleUpdate,
    Events.GuildRoleDelete,
    Events.GuildMemberAdd,
    Events.GuildMemberUpdate,
    Events.GuildMemberRemove,
  ] as const;
  const guildEvents = [Events.GuildUpdate, Events.GuildDelete] as const;
  for (const event of itemEvents) client.on(event, byItem);
  for (const event of guildEvents) client.on(event, byGuild);
  return () => {
    for (const event of itemEvents) client.off(event, byItem);
    for (const event of guildEvents) client.off(event, byGuild);
  };
}
