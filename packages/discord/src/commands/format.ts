import type { Fact, Relation } from '@permafrost/core';
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

const nodeLabel = (type: string, id: string) => (type === 'user' ? userMention(id) : plain(id, 64));

/** `@Alice —likes→ pizza (positive)`. */
export function relationLine(r: Relation): string {
  return `• ${nodeLabel(r.srcType, r.srcId)} —${plain(r.verb, 48)}→ ${nodeLabel(r.dstType, r.dstId)} (${r.polarity})`;
}

/** `@Alice *likes* → pizza ← *loves* @Bob`. */
export function sharedLine(entityId: string, left: Relation, right: Relation): string {
  return `• ${userMention(left.srcId)} *${plain(left.verb, 48)}* → ${plain(entityId, 64)} ← *${plain(right.verb, 48)}* ${userMention(right.srcId)}`;
}
