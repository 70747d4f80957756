import type { Fact, SourceRef } from '@permafrost/core';
import { jumpLink } from '@permafrost/core';

/** The link of a fact's primary source (or its first), or null when it has none (manual facts). */
export function factSourceLink(fact: Pick<Fact, 'guildId' | 'sources'>): string | null {
  const source: SourceRef | undefined = fact.sources.find((s) => s.role === 'primary') ?? fact.sources[0];
  if (!source) return null;
  if (source.url.startsWith('https://')) return source.url;
  return source.messageId ? jumpLink(fact.guildId, source.channelId, source.messageId) : null;
}
