import type { ScoredFact } from '../recall/recall-types.js';
import { jumpLink } from './jump-link.js';
import type { Citation } from './prompt-context-types.js';

/** Longest fact text shown on a block line. */
export const MAX_FACT_CHARS = 280;

export function truncate(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/** Citation of a fact shown as `[mem:index]`; the link comes from its primary source. */
export function buildCitation(item: ScoredFact, index: number, subjectName: string | null): Citation {
  const fact = item.fact;
  const source = fact.sources.find((s) => s.role === 'primary') ?? fact.sources[0];
  const url = source ? source.url || jumpLink(fact.guildId, source.channelId, source.messageId) : null;
  return {
    ref: `mem:${index}`,
    index,
    factId: fact.id,
    url,
    snippet: truncate(fact.text, MAX_FACT_CHARS),
    subjectId: fact.subjectId,
    subjectName,
    messageId: source?.messageId ?? null,
    channelId: source?.channelId ?? null,
    score: item.score,
    rerankScore: item.rerankScore,
  };
}

/** Markdown link of citation N; `<…>` keeps Discord from embedding the message. */
export function citationLink(c: Citation): string {
  return c.url === null ? '' : `[[${c.index}]](<${c.url}>)`;
}

const TAG = /[ \t]?\[mem:(\d{1,6})\]/g;

/**
 * Replaces each echoed `[mem:N]` with a jump link to N's source; tags of unknown facts or of
 * facts without a source are removed.
 */
export function applyCitations(text: string, citations: readonly Citation[]): string {
  const byIndex = new Map(citations.map((c) => [c.index, c]));
  return text.replace(TAG, (match, n: string) => {
    const c = byIndex.get(Number(n));
    if (!c || c.url === null) return '';
    return `${match.startsWith('[') ? '' : ' '}${citationLink(c)}`;
  });
}

/** The text with every `[mem:N]` tag removed. */
export function stripCitationTags(text: string): string {
  return text.replace(TAG, '');
}
