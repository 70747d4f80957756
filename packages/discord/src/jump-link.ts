import type { Fact, SourceRef } from '@permafrost/core';

/** `https://discord.com/channels/<guild>/<channel>/<message>`; DM memories use `@me`. */
export function jumpLink(guildId: string, channelId: string, messageId: string): string {
  const guild = guildId.startsWith('dm:') ? '@me' : guildId;
  return `https://discord.com/channels/${guild}/${channelId}/${messageId}`;
}

/** The link of a fact's primary source (or its first), or null when it has none (manual facts). */
export function factSourceLink(fact: Pick<Fact, 'guildId' | 'sources'>): string | null {
  const source: SourceRef | undefined = fact.sources.find((s) => s.role === 'primary') ?? fact.sources[0];
  if (!source) return null;
  if (source.url.startsWith('https://')) return source.url;
  if (!source.channelId || !source.messageId) return null;
  return jumpLink(fact.guildId, source.channelId, source.messageId);
}
