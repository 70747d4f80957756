import type { Fact, RelationEdge, SharedEntity } from '@permafrost/core';
import { escapeMarkdown, userMention } from 'discord.js';
import { factSourceLink } from '../jump-link.js';

const MAX_FACT_CHARS = 300;

/** User-supplied text, safe inside a message: markdown escaped, length capped. */
export function plain(text: string, max = MAX_FACT_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return escapeMarkdown(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat);
}

/** `3. likes hiking · [source](<jump link>)`; manual facts have no source link. */
export function factLine(fact: Fact, n: number): string {
  const link = factSourceLink(fact);
  return `${n}. ${plain(fact.text)}${link ? ` · [source](<${link}>)` : ''}`;
}

const nodeLabel = (node: RelationEdge['src']) =>
  node.type === 'user' ? userMention(node.id) : plain(node.id, 64);

/** `@Alice —likes→ pizza (positive)`. */
export function relationLine(e: RelationEdge): string {
  return `• ${nodeLabel(e.src)} —${plain(e.verb, 48)}→ ${nodeLabel(e.dst)} (${e.polarity})`;
}

/** `@Alice *likes* → pizza ← *loves* @Bob`. */
export function sharedLine(shared: SharedEntity, a: string, b: string): string | null {
  const [left] = shared.edges[0] ?? [];
  const [right] = shared.edges[1] ?? [];
  if (!left || !right) return null;
  return `• ${userMention(a)} *${plain(left.verb, 48)}* → ${plain(shared.name, 64)} ← *${plain(right.verb, 48)}* ${userMention(b)}`;
}
