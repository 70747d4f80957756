/** Discord jump link of a message; DM guild ids (`dm:<user>`) link through `@me`. */
export function jumpLink(guildId: string, channelId: string, messageId: string): string {
  const guild = guildId.startsWith('dm:') ? '@me' : guildId;
  return `https://discord.com/channels/${encodeURIComponent(guild).replace('%40', '@')}/${encodeURIComponent(channelId || '0')}/${encodeURIComponent(messageId)}`;
}
